import FlapClocks
import FlapCore
import FlapJSON
import FlapMessaging
import Foundation
import TestSupport
import Testing

@testable import FlapSources

/// Triggers on a manual clock, over a real inbox and sources read from files: an event coming
/// up fires once, a value crossing a line fires when it crosses, a webhook at each push, none
/// within its cooldown, and a restart neither repeats nor forgets.
@Suite(.timeLimit(.minutes(3))) struct TriggerTests {
    final class Rig: Sendable {
        let clock = ManualClock()
        let start = Date(timeIntervalSince1970: 1_795_672_800)  // 2026-11-26 06:00 UTC, 07:00 in Berlin
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("triggers-\(UUID().uuidString)").path
        let inbox: Inbox
        let logs = LogLines()

        init() throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            inbox = try Inbox(path: directory + "/inbox.sqlite")
        }

        var now: Date { start.addingTimeInterval(TimeInterval(clock.now.offset.components.seconds)) }

        func file(_ name: String, _ text: String) throws -> String {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func hub(_ sources: [SourceSettings]) -> SourceHub<ManualClock> {
            SourceHub(
                definitions: sources, zone: CalendarTests.berlin, stateDirectory: directory, clock: clock, now: { [self] in now }, logger: logs.logger
            )
        }

        func runner(_ triggers: [TriggerSettings], hub: SourceHub<ManualClock>) -> TriggerRunner<ManualClock> {
            var intake = MessageIntake(inbox: inbox, boardSize: .flagship, now: { [self] in now })
            intake.localProps = LocalProps(zone: CalendarTests.berlin)
            intake.sourceProps = { hub.shelf.props(at: $0) }
            return TriggerRunner(
                definitions: triggers, shelf: hub.shelf, intake: intake, clock: clock, now: { [self] in now },
                stateDirectory: directory, logger: logs.logger)
        }

        /// The trigger messages in the inbox, oldest first.
        func fired() async throws -> [Message] {
            try await inbox.slots().filter { $0.source == .trigger }
        }

        /// Moves the clock on in steps of the runner's look, letting each look finish.
        func pass(_ duration: Duration) async {
            var left = duration
            while left > .zero {
                await clock.sleepers(atLeast: 1)
                let step = min(left, TriggerRunner<ManualClock>.lookEvery)
                await clock.advance(by: step)
                left -= step
                await Task.yield()
            }
        }

        func stop() { try? FileManager.default.removeItem(atPath: directory) }
    }

    static func calendar(startingAt wall: String) -> String {
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:d@x\nSUMMARY:Dentist\nDTSTART;TZID=Europe/Berlin:\(wall)\nDURATION:PT30M\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    @Test func anEventComingUpFiresOnceWithItsTitle() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let ics = try rig.file("family.ics", Self.calendar(startingAt: "20261126T072000"))
        let hub = rig.hub([SourceSettings(name: "family", kind: .calendar, options: .init(), url: ics)])
        let trigger = TriggerSettings(
            name: "leave", source: "family", condition: .eventStarts(within: .seconds(900)),
            content: ["text": "{{family.next.title}} IN {{family.next.in}}"], duration: 600)
        let runner = rig.runner([trigger], hub: hub)
        let sources = Task { await hub.run() }, triggers = Task { await runner.run() }
        defer { sources.cancel(); triggers.cancel() }
        #expect(try await eventually { hub.shelf.health(at: rig.now).first?.state == .ok })
        // 07:00, the dentist at 07:20: not yet within 15 minutes.
        await rig.pass(.seconds(240))
        #expect(try await rig.fired().isEmpty)
        await rig.pass(.seconds(60))  // 07:05
        #expect(try await eventually { try await rig.fired().count == 1 })
        let message = try #require(try await rig.fired().first)
        #expect(message.content == .text("Dentist IN 15 min"))
        #expect(message.duration == 600 && message.priority == .trigger && message.sender.id == "trigger")
        #expect(message.expiresAt == rig.now.addingTimeInterval(600))
        await rig.pass(.seconds(600))
        #expect(try await rig.inbox.slots().filter { $0.source == .trigger && $0.expiresAt > rig.now }.isEmpty)
        #expect(rig.logs.all.filter { $0.contains("trigger fired") }.count == 1)
        let views = await runner.views()
        #expect(views.first?.when == "an event starts within 15m" && views.first?.lastFired == rig.start.addingTimeInterval(300))
    }

    @Test func aValueFiresWhenItCrossesNotWhileItStaysAndNotWithinItsCooldown() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let path = try rig.file("weather.json", #"{"current": {"temperature_2m": 4.5}}"#)
        let hub = rig.hub([
            SourceSettings(name: "weather", kind: .json, options: .init(pointers: ["temperature": "/current/temperature_2m"]), url: path)
        ])
        let trigger = TriggerSettings(
            name: "frost", source: "weather", condition: .below(value: "temperature", 0),
            content: ["text": "FROST {{weather.temperature}}"], duration: 60, cooldown: .seconds(3600))
        let runner = rig.runner([trigger], hub: hub)
        let sources = Task { await hub.run() }, triggers = Task { await runner.run() }
        defer { sources.cancel(); triggers.cancel() }
        func set(_ temperature: Double) async throws {
            _ = try rig.file("weather.json", #"{"current": {"temperature_2m": \#(temperature)}}"#)
            hub.refresh("weather")
            #expect(try await eventually { hub.shelf.props(at: rig.now)["weather"]?["temperature"] == .number(temperature) })
            await rig.pass(.seconds(30))
        }
        #expect(try await eventually { hub.shelf.health(at: rig.now).first?.state == .ok })
        await rig.pass(.seconds(30))
        try await set(-2)
        #expect(try await eventually { try await rig.fired().map(\.content) == [.text("FROST -2")] })
        // Still below: no second one.
        try await set(-3)
        #expect(try await rig.fired().count == 1)
        // Up and down again within the hour: cooling down.
        try await set(1)
        try await set(-1)
        #expect(rig.logs.all.filter { $0.contains("trigger fired") }.count == 1)
        // Up and down after the hour: again.
        try await set(2)
        await rig.pass(.seconds(3600))
        try await set(-4)
        #expect(try await eventually { rig.logs.all.filter { $0.contains("trigger fired") }.count == 2 })
        #expect(try await rig.fired().map(\.content) == [.text("FROST -4")])
    }

    @Test func aWebhookFiresAtEachPushThatMatches() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let hub = rig.hub([SourceSettings(name: "door", kind: .webhook, options: .init(fields: ["state"]))])
        let trigger = TriggerSettings(
            name: "door", source: "door", condition: .equals(value: "state", "open"),
            content: ["text": "DOOR OPEN"], duration: 30, cooldown: .seconds(10))
        let runner = rig.runner([trigger], hub: hub)
        let triggers = Task { await runner.run() }
        defer { triggers.cancel() }
        await rig.clock.sleepers(atLeast: 1)
        _ = try hub.push("door", body: ["state": "OPEN"])
        #expect(try await eventually { rig.logs.all.filter { $0.contains("trigger fired") }.count == 1 })
        _ = try hub.push("door", body: ["state": "closed"])
        await rig.pass(.seconds(30))
        _ = try hub.push("door", body: ["state": "open"])
        #expect(try await eventually { rig.logs.all.filter { $0.contains("trigger fired") }.count == 2 })
        // Within ten seconds of that: cooling down.
        _ = try hub.push("door", body: ["state": "open"])
        await rig.pass(.seconds(30))
        #expect(rig.logs.all.filter { $0.contains("trigger fired") }.count == 2)
    }

    @Test func aRestartDoesNotFireTheSameEventAgain() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let ics = try rig.file("family.ics", Self.calendar(startingAt: "20261126T071000"))
        let definition = SourceSettings(name: "family", kind: .calendar, options: .init(), url: ics)
        let trigger = TriggerSettings(name: "leave", source: "family", condition: .eventStarts(within: .seconds(900)), content: ["text": "GO"])
        do {
            let hub = rig.hub([definition]), runner = rig.runner([trigger], hub: hub)
            let sources = Task { await hub.run() }, triggers = Task { await runner.run() }
            #expect(try await eventually { rig.logs.all.contains { $0.contains("trigger fired") } })
            sources.cancel(); triggers.cancel()
            await sources.value; await triggers.value
        }
        await rig.clock.advance(by: .seconds(60))
        let hub = rig.hub([definition]), runner = rig.runner([trigger], hub: hub)
        let sources = Task { await hub.run() }, triggers = Task { await runner.run() }
        defer { sources.cancel(); triggers.cancel() }
        await rig.pass(.seconds(120))
        #expect(rig.logs.all.filter { $0.contains("trigger fired") }.count == 1)
        #expect(await runner.views().first?.lastFired == rig.start)
    }

    @Test func problemsNameTheKey() {
        let sources = [
            SourceSettings(name: "weather", kind: .json, options: .init(pointers: ["temperature": "/t"]), url: "/x"),
            SourceSettings(name: "door", kind: .webhook, options: .init(fields: ["state"]))
        ]
        func problems(_ trigger: TriggerSettings) -> [String] { trigger.problems(sources: sources).map { "\($0.key): \($0.problem)" } }
        #expect(
            problems(TriggerSettings(name: "a", source: "moon", condition: .pushed, content: ["text": "X"])) == [
                "source: there is no [[source]] called moon (there are weather, door)"
            ])
        #expect(
            problems(TriggerSettings(name: "a", source: "weather", condition: .eventStarts(within: .seconds(60)), content: ["text": "X"]))
                == ["starts_within: only a calendar's events start; weather is a json source"])
        #expect(
            problems(TriggerSettings(name: "a", source: "weather", condition: .above(value: "wind", 3), content: ["text": "X"]))
                == ["value: weather has no value wind (it has temperature)"])
        #expect(
            problems(TriggerSettings(name: "a", source: "weather", condition: .pushed, content: ["text": "X"]))
                == ["source: weather is fetched, not pushed to: give a condition (starts_within, above, below or equals)"])
        #expect(
            problems(TriggerSettings(name: "a", source: "door", condition: .pushed, content: ["text": "X"], duration: 5)) == [
                "duration: must be 10 seconds to 12 hours"
            ])
    }
}
