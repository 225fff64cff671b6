import FlapClocks
import FlapMessaging
import FlapTime
import Foundation
import Logging
import Synchronization
import TestSupport
import Testing

/// Messages sent for later released at their instants, on a manual clock with a wall clock that
/// follows it (and can be set apart from it, as NTP does): an hour passes in milliseconds.
/// A manual clock with a wall clock that follows it (and can be set apart from it, as NTP
/// does), an inbox on a real SQLite file, and a switch for the clock's trust.
struct TimeRig {
    let clock = ManualClock()
    let start: ManualClock.Instant
    /// Friday 2027-01-15 08:00 UTC unless a test starts elsewhere.
    let t0: Date
    let inbox: Inbox
    let time: ServiceTime<ManualClock>
    /// How far the wall clock has been set from the monotonic one.
    let wallOffset = Shared<TimeInterval>(0)
    let trusted = Shared(true)

    init(t0: Date = Date(timeIntervalSince1970: 1_800_000_000)) throws {
        self.t0 = t0
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("time-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        inbox = try Inbox(path: dir.appendingPathComponent("inbox.sqlite").path)
        let (clock, start, t0, wallOffset) = (clock, clock.now, t0, wallOffset)
        self.start = start
        time = ServiceTime(
            clock: clock,
            now: {
                let elapsed = start.duration(to: clock.now).components
                return t0 + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18 + wallOffset.withLock { $0 }
            })
    }

    /// The id of schedule `name`'s message at `seconds` since 1970 (made under the inbox's own key).
    func occurrence(_ name: String, _ seconds: Int) async throws -> String {
        ScheduleSettings.occurrenceID(name: name, at: Date(timeIntervalSince1970: TimeInterval(seconds)), key: try await inbox.occurrenceKey())
    }

    var trust: @Sendable () -> ClockVerdict {
        { [trusted] in
            trusted.withLock { $0 }
                ? ClockVerdict(rule: .configured, trusted: true, reason: "test")
                : ClockVerdict(rule: .timesyncd, trusted: false, reason: "waiting for systemd-timesyncd to synchronise the clock")
        }
    }

    /// Moves the clock to `seconds` after the start, deadline by deadline, each time once the
    /// timer has gone back to sleep, or once `idle` says it has nothing left to wait for.
    func drive(to seconds: Int64, idle: @escaping @Sendable () async -> Bool = { false }) async {
        let target = start.advanced(by: .seconds(seconds))
        while clock.now < target {
            await quiet(idle)
            let next = min(clock.nextDeadline ?? target, target)
            clock.jump(by: clock.now.duration(to: next))
        }
        await quiet(idle)
    }

    /// Waits for the event, however long a busy machine takes to get there: someone sleeps until
    /// after now, or `idle` holds (asked again every 5 ms). (Yielding a fixed number of times
    /// instead took over a minute beside stress-ng and two builds.)
    private func quiet(_ idle: @escaping @Sendable () async -> Bool) async {
        let now = clock.now
        while !(await idle()) {
            let slept = await withTaskGroup(of: Bool.self) { [clock] group in
                group.addTask {
                    await clock.sleeper(after: now)
                    return !Task.isCancelled
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(5))
                    return false
                }
                defer { group.cancelAll() }
                return await group.next() ?? false
            }
            if slept { return }
        }
    }

    /// The slots once the inbox is quiet (a release in flight has committed).
    func slotIDs(expecting expected: Set<String>) async throws -> Set<String> {
        var ids: Set<String> = []
        _ = try await eventually(every: .milliseconds(2)) {
            ids = Set(try await inbox.slots().map(\.id))
            return ids == expected
        }
        return ids
    }
}

@Suite(.timeLimit(.minutes(5))) struct ReleaseTimerTests {
    let rig: TimeRig
    var clock: ManualClock { rig.clock }
    var t0: Date { rig.t0 }
    var inbox: Inbox { rig.inbox }
    var trusted: Shared<Bool> { rig.trusted }
    var wallOffset: Shared<TimeInterval> { rig.wallOffset }

    init() throws { rig = try TimeRig() }

    /// The timer has nothing left to wait for once no message waits for its instant.
    func drive(to seconds: Int64) async { await rig.drive(to: seconds) { [inbox] in (try? await inbox.nextRelease()) == nil } }
    func slotIDs(expecting expected: Set<String>) async throws -> Set<String> { try await rig.slotIDs(expecting: expected) }

    func timer() -> ReleaseTimer<ManualClock> {
        ReleaseTimer(inbox: inbox, time: rig.time, trust: rig.trust, logger: Logger(label: "test"))
    }

    func message(_ id: String, from sender: String, at seconds: TimeInterval) -> Message {
        Message(
            id: id, sender: Sender(id: sender), content: .text(id), createdAt: t0, expiresAt: t0 + seconds + 3600,
            notBefore: t0 + seconds, source: MessageSource("test"))
    }

    @Test func eachMessageTakesItsSlotAtItsInstantAndASoonerOneIsNotKeptWaiting() async throws {
        let running = Task { [timer = timer()] in await timer.run() }
        defer { running.cancel() }
        _ = try await inbox.accept(message("breakfast", from: "kitchen", at: 3600), now: t0)
        await drive(to: 30)
        // A sooner one arrives while the timer waits for the later.
        _ = try await inbox.accept(message("tea", from: "hall", at: 600), now: t0 + 30)
        await drive(to: 599)
        #expect(try await slotIDs(expecting: []).isEmpty)
        await drive(to: 600)
        #expect(try await slotIDs(expecting: ["tea"]) == ["tea"])
        await drive(to: 3599)
        #expect(try await slotIDs(expecting: ["tea"]) == ["tea"])
        await drive(to: 3600)
        #expect(try await slotIDs(expecting: ["tea", "breakfast"]) == ["tea", "breakfast"])
    }

    @Test func aMessageWhoseInstantPassedWhileFlapdWasOffIsReleasedAtOnce() async throws {
        _ = try await inbox.accept(message("missed", from: "kitchen", at: -60), now: t0 - 120)
        #expect(try await inbox.receipt(id: "missed")?.status == .scheduled)
        let running = Task { [timer = timer()] in await timer.run() }
        defer { running.cancel() }
        #expect(try await slotIDs(expecting: ["missed"]) == ["missed"])
    }

    @Test func nothingIsReleasedOnAClockThatCannotBeTrustedUntilItCan() async throws {
        trusted.withLock { $0 = false }
        _ = try await inbox.accept(message("alarm", from: "bedroom", at: 60), now: t0)
        let running = Task { [timer = timer()] in await timer.run() }
        defer { running.cancel() }
        await drive(to: 600)
        #expect(try await slotIDs(expecting: []).isEmpty)
        #expect(try await inbox.receipt(id: "alarm")?.status == .scheduled)
        trusted.withLock { $0 = true }
        await drive(to: 606)
        #expect(try await slotIDs(expecting: ["alarm"]) == ["alarm"])
    }

    @Test func aWallClockSetForwardReleasesWithinAMinute() async throws {
        _ = try await inbox.accept(message("later", from: "kitchen", at: 7200), now: t0)
        let running = Task { [timer = timer()] in await timer.run() }
        defer { running.cancel() }
        await drive(to: 10)
        // NTP sets the wall clock two hours forward; the monotonic clock does not move.
        wallOffset.withLock { $0 = 7200 }
        await drive(to: 70)
        #expect(try await slotIDs(expecting: ["later"]) == ["later"])
    }
}
