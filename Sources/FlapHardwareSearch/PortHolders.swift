import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Who holds a device open: a process whose open files (`/proc/PID/fd`) lead to it, or a UUCP
/// lock file (`/run/lock/LCK..ttyUSB0`, which minicom, screen and ModemManager's kin leave).
/// Only the processes this one may look into are seen (its own user's, or all as root); a port
/// held with `TIOCEXCL` by one it cannot see refuses to open, and counts as held too.
public struct PortHolders: Sendable {
    /// Where the processes are: `/proc`, or a folder a test made.
    public var processes: String
    /// Where UUCP lock files are.
    public var locks: String
    /// This process, which is never another program.
    public var ownID: Int32

    /// Holders as `/proc` and `/run/lock` show them (or folders a test made).
    public init(processes: String = "/proc", locks: String = "/run/lock", ownID: Int32 = getpid()) {
        self.processes = processes
        self.locks = locks
        self.ownID = ownID
    }

    /// Who holds `device` (its command name and ID), or nil when no other program does.
    public func holder(of device: String) -> String? {
        let base = device.split(separator: "/").last.map(String.init) ?? device
        if let owner = try? String(contentsOfFile: locks + "/LCK.." + base, encoding: .utf8),
            let pid = Int32(owner.split(whereSeparator: { $0 == " " || $0 == "\n" }).first ?? ""), pid != ownID
        {
            return "\(command(of: pid) ?? "a program") (\(pid), by its lock file)"
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: processes)) ?? []
        for entry in entries {
            guard let pid = Int32(entry), pid != ownID else { continue }
            let fds = processes + "/" + entry + "/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? [] {
                guard (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + fd)) == device else { continue }
                return "\(command(of: pid) ?? "a program") (\(pid))"
            }
        }
        return nil
    }

    private func command(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "\(processes)/\(pid)/comm", encoding: .utf8))?.split(separator: "\n").first.map(String.init)
    }
}
