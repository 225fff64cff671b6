import FlapClocks
import FlapCore
import FlapMessaging
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

/// Schedules that follow the sun (the manual clock starts Friday 2027-01-15 08:00 UTC): one
/// fires at sunset+30m in Berlin; through a polar night the next sunrise is weeks off; a time
/// that cannot be read, or a sunrise without the board's location, is refused naming it.
@Suite(.timeLimit(.minutes(5))) struct SunScheduleTests {
    let rig: TimeRig
    init() throws { rig = try TimeRig() }

    static let berlin = GeoLocation(latitude: 52.52, longitude: 13.4)

    func runner(_ fromFile: [ScheduleSettings], location: GeoLocation? = berlin) -> ScheduleRunner<ManualClock> {
        let intake = MessageIntake(inbox: rig.inbox, boardSize: .flagship, now: rig.time.now)
        return ScheduleRunner(
            inbox: rig.inbox, intake: intake, time: rig.time, trust: rig.trust, fromFile: fromFile,
            systemZone: ZoneRules.named("Europe/Berlin")!, location: location, logger: Logger(label: "test"))
    }

    @Test func anEveningScheduleFiresHalfAnHourAfterSunset() async throws {
        let sunset = try #require(SunTimes.instant(of: .sunset, day: CivilDate.days(year: 2027, month: 1, day: 15), at: Self.berlin))
        let due = sunset.addingTimeInterval(30 * 60)
        let offset = Int64(due.timeIntervalSince(rig.t0).rounded(.up))
        let runner = runner([ScheduleRunnerTests.schedule("lights", times: ["sunset+30m"], text: "LIGHTS ON")])
        #expect(await runner.list().first?.next.map { abs($0.timeIntervalSince(due)) < 1 } == true)
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: offset - 60)
        #expect(try await rig.inbox.slots().isEmpty)
        await rig.drive(to: offset)
        #expect(try await rig.slotIDs(expecting: [try await rig.occurrence("lights", Int(due.timeIntervalSince1970))]).count == 1)
    }

    @Test func throughThePolarNightTheNextSunriseIsWeeksOff() throws {
        var definition = ScheduleRunnerTests.schedule("dawn", times: ["sunrise"])
        definition.timeZone = "Arctic/Longyearbyen"
        let recurrence = try definition.recurrence(location: GeoLocation(latitude: 78.22, longitude: 15.65))
        let next = try #require(recurrence.next(after: Date(timeIntervalSince1970: 1_796_083_200)))  // 2026-12-01
        let date = CivilDate(day: Int64(next.timeIntervalSince1970 / 86_400))
        #expect(date.year == 2027 && date.month == 2, "\(date)")
    }

    @Test func aTimeThatCannotBeReadOrASunriseWithoutALocationIsRefused() {
        func problems(_ times: [String], location: GeoLocation? = Self.berlin) -> [String] {
            do { _ = try ScheduleRunnerTests.schedule("x", times: times).recurrence(location: location); return [] } catch {
                return error.problems.map(\.description)
            }
        }
        #expect(problems(["sunset+30m", "07:00", "sunrise-1h"]).isEmpty)
        #expect(problems(["sunset+13h"]) == ["times: \"sunset+13h\" is not sunset, sunset+30m or sunset-1h (at most 12 hours before or after)"])
        #expect(problems(["sunrise+"]).count == 1)
        #expect(
            problems(["sunrise"], location: nil) == [
                "times: sunrise and sunset need the board's location: [location] latitude and longitude in flapd.toml"
            ])
    }
}
