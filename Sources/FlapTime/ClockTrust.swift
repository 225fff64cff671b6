import CLinuxDevices
import FlapCore
import FlapStorage
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the wall clock can be trusted for timed events (messages sent for later; schedules
/// and quiet hours go by it too). A Raspberry Pi has no battery-backed clock: after power comes
/// back its time can be hours or months wrong until NTP synchronises it. The rules, first that
/// applies:
///
/// 1. `[time] clock = "trusted"` (a board with a real-time clock, or a clock set some other
///    way): trusted.
/// 2. systemd-timesyncd runs (its runtime directory, /run/systemd/timesync, exists): trusted once
///    it has touched `synchronized` there, held until then (its clock starts from the time saved
///    at the last shutdown, so before synchronising it is late by however long the power was off).
/// 3. The kernel says the clock is synchronised (`adjtimex` answers other than TIME_ERROR, as
///    under chrony or ntpd): trusted.
/// 4. Nothing says (a VM or container reports TIME_ERROR for ever): trusted as long as the clock
///    has not gone back before the last time flapd saw, which it keeps in its state directory;
///    held until the clock passes it.
public struct ClockTrust: Sendable {
    /// `[time] clock`.
    public enum Setting: String, Sendable, CaseIterable {
        /// Decide by the rules above.
        case auto
        /// The clock is right: timed events go by it.
        case trusted
    }

    /// The configured setting.
    public let setting: Setting
    /// systemd-timesyncd's runtime directory.
    public let timesyncDirectory: String
    /// Where the last time flapd saw is kept.
    public let lastSeenFile: String
    /// Whether the kernel says the clock is synchronised; nil when it cannot tell.
    public let kernelSynchronised: @Sendable () -> Bool?
    /// The wall clock.
    public let now: @Sendable () -> Date

    /// Trust decided by `setting`, keeping the last time seen in `stateDirectory`.
    public init(
        setting: Setting, stateDirectory: String, timesyncDirectory: String = "/run/systemd/timesync",
        kernelSynchronised: @escaping @Sendable () -> Bool? = ClockTrust.kernelSaysSynchronised,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.setting = setting
        self.timesyncDirectory = timesyncDirectory
        lastSeenFile = stateDirectory.appendingPathComponent("clock")
        self.kernelSynchronised = kernelSynchronised
        self.now = now
    }

    /// The rule that applies now and what it says.
    public func verdict() -> ClockVerdict {
        if setting == .trusted {
            return ClockVerdict(rule: .configured, trusted: true, reason: "the configuration says the clock is right ([time] clock = \"trusted\")")
        }
        var isDirectory = false
        if FileManager.default.fileExists(atPath: timesyncDirectory, isDirectory: &isDirectory), isDirectory {
            return FileManager.default.fileExists(atPath: timesyncDirectory + "/synchronized")
                ? ClockVerdict(rule: .timesyncd, trusted: true, reason: "systemd-timesyncd has synchronised the clock")
                : ClockVerdict(rule: .timesyncd, trusted: false, reason: "waiting for systemd-timesyncd to synchronise the clock")
        }
        if kernelSynchronised() == true {
            return ClockVerdict(rule: .kernel, trusted: true, reason: "the kernel says the clock is synchronised")
        }
        guard let seen = lastSeen() else {
            return ClockVerdict(
                rule: .lastSeen, trusted: true, reason: "nothing says whether the clock is synchronised; flapd has not run on this clock before")
        }
        let now = now()
        if now >= seen {
            return ClockVerdict(
                rule: .lastSeen, trusted: true,
                reason: "nothing says whether the clock is synchronised; it has not gone back before the last time flapd saw")
        }
        return ClockVerdict(
            rule: .lastSeen, trusted: false,
            reason:
                "the clock reads \(now.formatted(.iso8601)), before the last time flapd saw (\(seen.formatted(.iso8601))): timed events wait until it passes that"
        )
    }

    /// Keeps the time now as the last time flapd saw, when the clock is trusted and it is later
    /// than the one kept (written to a new file and renamed, so a power cut leaves one or the other).
    public func recordSeen() {
        let verdict = verdict()
        let now = now()
        guard verdict.trusted, lastSeen().map({ now > $0 }) ?? true else { return }
        let temporary = lastSeenFile + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(String(cFormat: "%.3f\n", now.timeIntervalSince1970).utf8)) else {
            return
        }
        _ = rename(temporary, lastSeenFile)
    }

    func lastSeen() -> Date? {
        // A number of seconds and a newline: anything longer is not this file.
        guard let data = try? SmallFile.read(lastSeenFile, largest: 64),
            let seconds = Double(String(decoding: data, as: UTF8.self).trimmed)
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// `adjtimex`'s answer: synchronised unless TIME_ERROR (the kernel's STA_UNSYNC), which is
    /// also what a clock nobody disciplines reports, so TIME_ERROR means "cannot tell".
    public static let kernelSaysSynchronised: @Sendable () -> Bool? = {
        let state = vw_clock_state()
        return state >= 0 && state != vw_time_error ? true : nil
    }
}

/// Which rule decided whether timed events may fire, and what it found.
public struct ClockVerdict: Sendable, Equatable, Codable {
    /// The rules, as `/v1/status` names them.
    public enum Rule: String, Sendable, Codable {
        case configured, timesyncd, kernel, lastSeen
    }

    /// The rule that decided.
    public var rule: Rule
    /// Whether timed events may fire.
    public var trusted: Bool
    /// What it found, in words.
    public var reason: String

    /// A verdict of `rule`.
    public init(rule: Rule, trusted: Bool, reason: String) {
        self.rule = rule
        self.trusted = trusted
        self.reason = reason
    }
}
