import Glibc
import Logging

/// flapd's open-file limit, raised at start from the soft limit (1 024 under most shells and
/// systemd) to the hard one, at most 65 536: the connection limits keep what clients can hold
/// far below it, and the rest is room for the panels, sensors and databases.
enum DescriptorLimit {
    static let wanted: rlim_t = 65_536

    static func raise(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let target = min(limit.rlim_max, wanted)
        guard limit.rlim_cur < target else { return }
        let before = limit.rlim_cur
        limit.rlim_cur = target
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            logger.debug("open-file limit raised", metadata: ["from": "\(before)", "to": "\(target)"])
        }
    }
}
