import FlapTime
import Foundation
import Synchronization
import Testing

/// Which rule decides whether the clock can be trusted, on files laid out as systemd-timesyncd
/// and flapd leave them.
@Suite struct ClockTrustTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID().uuidString)")
    let now = Shared(Date(timeIntervalSince1970: 1_800_000_000))

    func trust(_ setting: ClockTrust.Setting = .auto, timesync: Bool = false, kernel: Bool? = nil) throws -> ClockTrust {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let timesyncDirectory = directory.appendingPathComponent("timesync").path
        if timesync { try FileManager.default.createDirectory(atPath: timesyncDirectory, withIntermediateDirectories: true) }
        let now = self.now
        return ClockTrust(
            setting: setting, stateDirectory: directory.path, timesyncDirectory: timesyncDirectory,
            kernelSynchronised: { kernel }, now: { now.withLock { $0 } })
    }

    @Test func aConfiguredClockIsTrustedWhateverElseSays() throws {
        let verdict = try trust(.trusted, timesync: true).verdict()
        #expect(verdict.rule == .configured && verdict.trusted)
    }

    @Test func timesyncdHoldsTimedEventsUntilItHasSynchronised() throws {
        let trust = try trust(timesync: true, kernel: true)
        #expect(trust.verdict() == ClockVerdict(rule: .timesyncd, trusted: false, reason: "waiting for systemd-timesyncd to synchronise the clock"))
        FileManager.default.createFile(atPath: trust.timesyncDirectory + "/synchronized", contents: Data())
        #expect(trust.verdict().rule == .timesyncd && trust.verdict().trusted)
    }

    @Test func withoutTimesyncdTheKernelDecides() throws {
        let verdict = try trust(kernel: true).verdict()
        #expect(verdict.rule == .kernel && verdict.trusted)
    }

    @Test func whenNothingCanTellAClockThatWentBackIsHeld() throws {
        let trust = try trust(kernel: nil)
        #expect(trust.verdict().rule == .lastSeen && trust.verdict().trusted)
        trust.recordSeen()
        // Power comes back with the clock months behind (no battery, no saved time).
        now.withLock { $0 = $0.addingTimeInterval(-90 * 86400) }
        let held = trust.verdict()
        #expect(!held.trusted && held.reason.contains("before the last time flapd saw"))
        trust.recordSeen()  // an untrusted clock is not recorded
        now.withLock { $0 = $0.addingTimeInterval(90 * 86400 + 60) }
        #expect(trust.verdict().trusted)
        // This machine: a VM whose kernel reports TIME_ERROR for ever, so the kernel cannot tell.
        #expect(ClockTrust.kernelSaysSynchronised() == nil || ClockTrust.kernelSaysSynchronised() == true)
    }

    @Test func aLastSeenFileOverItsBudgetIsNotBelieved() throws {
        let trust = try trust(kernel: nil)
        // A time in the far future, padded past the 64 bytes such a file holds: not read.
        try ("9999999999.000" + String(repeating: " ", count: 100)).write(toFile: trust.lastSeenFile, atomically: true, encoding: .utf8)
        #expect(trust.verdict().trusted, "no last time flapd saw")
        try "9999999999.000\n".write(toFile: trust.lastSeenFile, atomically: true, encoding: .utf8)
        #expect(!trust.verdict().trusted, "within the budget it is read, and the clock is behind it")
    }
}
