import FlapClocks
import FlapCore
import FlapMessaging
import FlapTime
import Foundation
import TestSupport
import Testing

@testable import FlapDisplay

/// Which covers which on a virtual clock: a person's message wins over a trigger's and a
/// background schedule's, a trigger's over a background schedule's; a schedule's takes the board
/// at its instant as a person's newer message would; what was covered comes back.
@Suite(.timeLimit(.minutes(3))) struct MessagePriorityTests {
    typealias Rig = DisplayCoordinatorTests.Rig

    static func shows(_ rig: Rig, _ id: String) async throws {
        try await rig.until("target \(id)") { await rig.coordinator.target == id }
        try await rig.finishMotion()
        try await rig.until("\(id) displayed") { try await rig.status(id) == .displayed }
    }

    @Test func aPersonsMessageWinsOverANewerScheduleAndATrigger() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("mum", from: "mum", text: "DINNER AT SEVEN")
        try await Self.shows(rig, "mum")
        // The schedule fires after her message, and a trigger goes off: neither covers hers.
        try await rig.send("weather", from: "schedule", text: "SUNNY 21", source: .backgroundSchedule)
        try await rig.send("door", from: "trigger", text: "DOOR OPEN", duration: 300, source: .trigger)
        await rig.clock.advance(by: .seconds(5))
        #expect(await rig.coordinator.target == "mum")
        // She clears her message: the trigger's, still lasting, shows; then the schedule's.
        _ = try await rig.inbox.clearSlot("mum", now: rig.time.now())
        try await Self.shows(rig, "door")
        await rig.clock.advance(by: .seconds(300))
        try await Self.shows(rig, "weather")
    }

    @Test func aScheduleTakesTheBoardAtItsInstantOverADayOldMessageAndGivesItBack() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        // Mum wrote yesterday; her message lives 48 hours.
        try await rig.send("mum", from: "mum", text: "DINNER AT SEVEN", created: -86_400, lifetime: 172_800)
        try await Self.shows(rig, "mum")
        // The medication reminder fires, holding its slot for ten minutes: it takes the board.
        try await rig.send("pills", from: "schedule-pills", text: "PILLS", lifetime: 600, source: .schedule)
        try await Self.shows(rig, "pills")
        // A trigger does not cover it; a person's temporary message does, while it lasts.
        try await rig.send("door", from: "trigger", text: "DOOR OPEN", duration: 60, source: .trigger)
        await rig.clock.advance(by: .seconds(5))
        #expect(await rig.coordinator.target == "pills")
        try await rig.send("oven", from: "kitchen", text: "OVEN READY", duration: 60)
        try await Self.shows(rig, "oven")
        await rig.clock.advance(by: .seconds(60))
        try await Self.shows(rig, "pills")
        // Its ten minutes over, what it covered comes back.
        await rig.clock.advance(by: .seconds(600))
        try await Self.shows(rig, "mum")
    }

    @Test func aBackgroundScheduleStaysUnderAPersonsMessage() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("mum", from: "mum", text: "DINNER AT SEVEN", created: -86_400, lifetime: 172_800)
        try await Self.shows(rig, "mum")
        var clock = ScheduleSettings(name: "clock")
        clock.background = true
        #expect(clock.source == .backgroundSchedule && ScheduleSettings(name: "pills").source == .schedule)
        try await rig.send("quote", from: "schedule-clock", text: "CARPE DIEM", source: clock.source)
        await rig.clock.advance(by: .seconds(5))
        #expect(await rig.coordinator.target == "mum")
        _ = try await rig.inbox.clearSlot("mum", now: rig.time.now())
        try await Self.shows(rig, "quote")
    }

    @Test func aTriggerCoversAScheduleAndGivesItBack() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("weather", from: "schedule", text: "SUNNY 21", source: .backgroundSchedule)
        try await Self.shows(rig, "weather")
        try await rig.send("frost", from: "trigger", text: "FROST TONIGHT", duration: 60, source: .trigger)
        try await Self.shows(rig, "frost")  // 20 s
        // A newer schedule's message waits under the trigger.
        try await rig.send("later", from: "schedule", text: "CLOUDY 15", source: .backgroundSchedule)
        await rig.clock.advance(by: .seconds(30))
        #expect(await rig.coordinator.target == "frost")
        await rig.clock.advance(by: .seconds(10))  // 60 s
        try await Self.shows(rig, "later")
    }

    @Test func aPersonsTemporaryMessageCoversATriggersAndDoesNotShareItsSlot() async throws {
        let rig = try Rig(policy: .latest)
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("weather", from: "schedule", text: "SUNNY 21", source: .backgroundSchedule)
        try await Self.shows(rig, "weather")
        try await rig.send("bins", from: "trigger", text: "BINS OUT", duration: 600, source: .trigger)
        try await Self.shows(rig, "bins")  // 20 s
        try await rig.send("oven", from: "kitchen", text: "OVEN READY", duration: 60)
        try await Self.shows(rig, "oven")  // 40 s
        // Both temporary messages are kept; the trigger's comes back when the person's ends.
        #expect(try await rig.inbox.slots().map(\.id).sorted() == ["bins", "oven", "weather"])
        // And a later trigger does not replace the person's temporary message.
        try await rig.send("frost", from: "trigger", text: "FROST", duration: 600, source: .trigger)
        await rig.clock.advance(by: .seconds(1))
        #expect(await rig.coordinator.target == "oven")
        #expect(try await rig.inbox.slots().map(\.id).sorted() == ["frost", "oven", "weather"])
        await rig.clock.advance(by: .seconds(60))
        try await Self.shows(rig, "frost")
    }

    @Test func aTriggerDoesNotCoverARotationWithAPersonsMessageInIt() async throws {
        let rig = try Rig(policy: .rotate(every: .seconds(60)))
        let run = Task { await rig.coordinator.run() }
        defer { run.cancel() }
        try await rig.send("weather", from: "schedule", text: "SUNNY 21", source: .backgroundSchedule)
        try await Self.shows(rig, "weather")
        try await rig.send("mum", from: "mum", text: "DINNER AT SEVEN")
        try await rig.send("door", from: "trigger", text: "DOOR OPEN", duration: 600, source: .trigger)
        await rig.clock.advance(by: .seconds(60))
        try await Self.shows(rig, "mum")
        #expect(await rig.coordinator.target != "door")
        // Without her message in it, the trigger covers the rotation.
        _ = try await rig.inbox.clearSlot("mum", now: rig.time.now())
        try await Self.shows(rig, "door")
    }
}
