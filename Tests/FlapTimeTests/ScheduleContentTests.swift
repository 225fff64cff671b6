import FlapClocks
import FlapCore
import FlapJSON
import FlapMessaging
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

/// What schedules show (the manual clock starts Friday 2027-01-15 08:00 UTC): a text's
/// `{{weekday}}` is the day it fires, a VBML document fires as itself, and a schedule whose
/// content could never be shown is refused when it is added, naming the field.
@Suite(.timeLimit(.minutes(5))) struct ScheduleContentTests {
    let rig: TimeRig
    init() throws { rig = try TimeRig() }

    /// A runner whose intake knows the board's time zone (UTC), as flapd's does.
    func runner(_ fromFile: [ScheduleSettings] = []) -> ScheduleRunner<ManualClock> {
        var intake = MessageIntake(inbox: rig.inbox, boardSize: .flagship, now: rig.time.now)
        intake.localProps = LocalProps(zone: .utc)
        return ScheduleRunner(
            inbox: rig.inbox, intake: intake, time: rig.time, trust: rig.trust, fromFile: fromFile,
            systemZone: .utc, logger: Logger(label: "test"))
    }

    @Test func aGoodMorningScheduleNamesTheDayItFires() async throws {
        let runner = runner([ScheduleRunnerTests.schedule("morning", days: ["daily"], times: ["07:00"], text: "GOOD MORNING\n{{weekday}} {{ date }}")]
        )
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: 23 * 3600)  // Saturday 07:00
        _ = try await rig.slotIDs(expecting: [try await rig.occurrence("morning", Int(rig.t0.timeIntervalSince1970) + 23 * 3600)])
        let slot = try await rig.inbox.slots().first
        #expect(slot?.content == .text("GOOD MORNING\nSaturday 2027-01-16"), "\(String(describing: slot?.content))")
    }

    @Test func aVBMLScheduleFiresAsItsDocument() async throws {
        var definition = ScheduleRunnerTests.schedule("menu", times: ["12:00"])
        definition.text = nil
        definition.vbml = ["components": [["template": "LUNCH ON {{weekday}}", "style": ["justify": "center"]]]]
        let runner = runner([definition])
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: 4 * 3600)  // Friday 12:00
        _ = try await rig.slotIDs(expecting: [try await rig.occurrence("menu", Int(rig.t0.timeIntervalSince1970) + 4 * 3600)])
        guard case .vbml(let document)? = try await rig.inbox.slots().first?.content else { Issue.record("not a VBML message"); return }
        #expect(document["props"]?["weekday"] == "Friday")
    }

    @Test func aScheduleThatCouldNeverBeShownIsRefusedWhenAdded() async throws {
        let runner = runner()
        func problems(_ definition: ScheduleSettings) async -> [String] {
            do { _ = try await runner.add(definition); return [] } catch {
                guard case ScheduleBookError.invalid(let errors)? = error as? ScheduleBookError else { return ["\(error)"] }
                return errors.problems.map(\.description)
            }
        }
        #expect(
            await problems(ScheduleRunnerTests.schedule("typo", times: ["07:00"], text: "GOOD MORNING {{wekday}}"))
                == ["text: line 1, position 14: {{wekday}} is not a placeholder; there are date, day, hour, minute, month, time, weekday, year"])
        #expect(
            await problems(ScheduleRunnerTests.schedule("open", times: ["07:00"], text: "HI\nTHERE {{weekday"))
                == ["text: line 2, position 7: {{ is not closed with }}"])
        var wide = ScheduleRunnerTests.schedule("wide", times: ["07:00"])
        wide.text = nil
        wide.vbml = ["components": [["template": "X", "style": ["width": 30]]]]
        #expect(await problems(wide) == ["vbml.components[0].style.width: 30 is wider than the board (22)"])
        var both = ScheduleRunnerTests.schedule("both", times: ["07:00"])
        both.vbml = ["components": [["template": "X"]]]
        #expect(await problems(both) == ["text: give only one of text, codes, pattern, vbml or quickMessage"])
        #expect(await runner.list().isEmpty)
    }
}
