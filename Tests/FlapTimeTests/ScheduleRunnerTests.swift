import FlapClocks
import FlapCore
import FlapJSON
import FlapMessaging
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

/// Recurring messages on a manual clock (starting Friday 2027-01-15 08:00 UTC): each fires at
/// its occurrences, a jump fires each schedule at most once, an untrusted clock fires nothing,
/// and the API's book keeps the file's schedules read-only.
@Suite(.timeLimit(.minutes(5))) struct ScheduleRunnerTests {
    let rig: TimeRig
    init() throws { rig = try TimeRig() }

    func runner(_ fromFile: [ScheduleSettings] = []) -> ScheduleRunner<ManualClock> {
        let intake = MessageIntake(inbox: rig.inbox, boardSize: .flagship, now: rig.time.now)
        return ScheduleRunner(
            inbox: rig.inbox, intake: intake, time: rig.time, trust: rig.trust, fromFile: fromFile,
            systemZone: ZoneRules.named("UTC")!, logger: Logger(label: "test"))
    }

    static func schedule(
        _ name: String, days: [String]? = nil, times: [String]? = nil, cron: String? = nil, text: String = "HELLO", hold: Int? = nil
    ) -> ScheduleSettings {
        var definition = ScheduleSettings(name: name)
        definition.days = days
        definition.times = times
        definition.cron = cron
        definition.text = text
        definition.holdMinutes = hold
        return definition
    }

    /// Every message the inbox has from `sender`, by id.
    func receipts(from sender: String) async throws -> [String] {
        try await rig.inbox.recentReceipts(limit: 500).filter { $0.sender == sender }.map(\.id).sorted()
    }

    @Test func aWeekdayMorningScheduleFiresAtItsTimeAndHoldsItsSlot() async throws {
        let runner = runner([Self.schedule("morning", days: ["weekdays"], times: ["07:00"], text: "GOOD MORNING", hold: 120)])
        let running = Task { await runner.run() }
        defer { running.cancel() }
        // Friday 08:00 → Monday 07:00 is 71 hours on; nothing over the weekend.
        await rig.drive(to: 71 * 3600 - 1)
        #expect(try await receipts(from: "schedule-morning").isEmpty)
        await rig.drive(to: 71 * 3600)
        #expect(
            try await rig.slotIDs(expecting: [try await rig.occurrence("morning", 1800255600)]) == [try await rig.occurrence("morning", 1800255600)])
        let slot = try await rig.inbox.slots().first
        #expect(slot?.content == .text("GOOD MORNING") && slot?.expiresAt == rig.t0 + 71 * 3600 + 7200)
        #expect(await runner.list().first?.next == rig.t0 + 95 * 3600)  // Tuesday
    }

    /// A member posted `schedule-meds-EPOCH`, the id the occurrence would take, and the owner's
    /// medication reminder did not fire. Its id is now made under the inbox's own key, and a
    /// chosen id is its sender's alone: the schedule fires whatever others send first.
    @Test func aScheduleFiresWhateverIdsOthersChoseFirst() async throws {
        let due = 71 * 3600, epoch = Int(rig.t0.timeIntervalSince1970) + due
        let intake = MessageIntake(inbox: rig.inbox, boardSize: .flagship, now: rig.time.now)
        for sender in ["mum", "schedule-morning"] {
            let fields: [String: JSONValue] = ["id": .string("schedule-morning-\(epoch)"), "sender": ["id": .string(sender)], "text": "HELLO"]
            guard case .accepted = try await intake.submit(fields: fields, source: .nativeAPI) else {
                Issue.record("\(sender)'s message was not taken"); return
            }
        }
        let runner = runner([Self.schedule("morning", days: ["weekdays"], times: ["07:00"], text: "GOOD MORNING")])
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: Int64(due))
        let occurrence = try await rig.occurrence("morning", epoch)
        #expect(occurrence != "schedule-morning-\(epoch)" && occurrence.hasPrefix("s-") && occurrence.count == 34)
        #expect(try await rig.slotIDs(expecting: [occurrence, "schedule-morning-\(epoch)"]).contains(occurrence))
        #expect(try await rig.inbox.slots().first { $0.id == occurrence }?.content == .text("GOOD MORNING"))
        // Another board's key makes other ids.
        let other = try TimeRig()
        #expect(try await other.occurrence("morning", epoch) != occurrence)
    }

    @Test func aClockJumpFiresEachScheduleOnceForItsLatestOccurrenceWithinTheGrace() async throws {
        let runner = runner([Self.schedule("hourly", cron: "0 * * * *"), Self.schedule("breakfast", times: ["08:30"])])
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: 60)
        // NTP sets the wall clock 5 h 10 min forward: 09:00 … 13:00 were missed, and 08:30.
        rig.wallOffset.withLock { $0 = 5 * 3600 + 600 - 60 }
        await rig.drive(to: 120)
        var fired: [String] = []
        _ = try await eventually(every: .milliseconds(2)) {
            fired = try await receipts(from: "schedule-hourly")
            return !fired.isEmpty
        }
        #expect(fired == [try await rig.occurrence("hourly", Int(rig.t0.timeIntervalSince1970) + 5 * 3600)])
        // 08:30 was hours ago: past the grace, skipped.
        #expect(try await receipts(from: "schedule-breakfast").isEmpty)
    }

    @Test func nothingFiresOnAClockThatCannotBeTrusted() async throws {
        rig.trusted.withLock { $0 = false }
        let runner = runner([Self.schedule("hourly", cron: "0 * * * *")])
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: 3 * 3600)
        #expect(try await receipts(from: "schedule-hourly").isEmpty)
    }

    @Test func theBookAddsChangesAndRemovesButNotTheFilesSchedules() async throws {
        let runner = runner([Self.schedule("from-file", times: ["07:00"])])
        let added = try await runner.add(Self.schedule("bins", cron: "30 19 * * tue", text: "BINS OUT"))
        #expect(!added.fromFile && added.next == Date(timeIntervalSince1970: 1_800_387_000))  // Tuesday 19:30
        await #expect(throws: ScheduleBookError.self) { try await runner.add(Self.schedule("bins", times: ["08:00"])) }
        await #expect(throws: ScheduleBookError.self) { try await runner.remove("from-file") }
        await #expect(throws: ScheduleBookError.self) { try await runner.replace("from-file", with: Self.schedule("x", times: ["09:00"])) }
        let changed = try await runner.replace("bins", with: Self.schedule("ignored", cron: "0 20 * * tue", text: "BINS OUT"))
        #expect(changed.definition.name == "bins" && changed.definition.cron == "0 20 * * tue")
        #expect(await runner.list().map(\.definition.name) == ["from-file", "bins"])
        do {
            _ = try await runner.add(Self.schedule("never", cron: "0 0 31 2 *"))
            Issue.record("31 February accepted")
        } catch {
            guard case ScheduleBookError.invalid(let errors)? = error as? ScheduleBookError else { Issue.record("\(error)"); return }
            #expect(errors.problems.first?.field == "cron" && errors.description.contains("never fire"))
        }
        var zoned = Self.schedule("mars", times: ["07:00"])
        zoned.timeZone = "Mars/Olympus"
        do { _ = try await runner.add(zoned); Issue.record("a zone that does not exist accepted") } catch {
            guard case ScheduleBookError.invalid(let errors)? = error as? ScheduleBookError else { Issue.record("\(error)"); return }
            #expect(errors.problems.map(\.field) == ["timeZone"])
        }
        try await runner.remove("bins")
        // Kept in SQLite: a new runner on the same inbox finds what the API added.
        _ = try await runner.add(Self.schedule("kept", times: ["06:00"]))
        #expect(await self.runner().list().map(\.definition.name) == ["kept"])
    }
}
