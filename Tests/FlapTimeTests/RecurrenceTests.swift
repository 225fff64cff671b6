import FlapCore
import FlapTime
import Foundation
import Testing

/// Occurrences across both daylight-saving changes in Europe/Berlin and America/New_York, and
/// cron expressions read as crontab reads them.
@Suite struct RecurrenceTests {
    static func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    static func daily(_ hhmm: Int, _ zone: String) -> Recurrence {
        Recurrence(rule: .weekly(days: Set(0...6), minutes: [hhmm / 100 * 60 + hhmm % 100]), timeZone: ZoneRules.named(zone)!)
    }

    /// Every occurrence from `start` for `count` fires.
    static func occurrences(_ recurrence: Recurrence, from start: String, count: Int) -> [Date] {
        var dates: [Date] = []
        var cursor = instant(start)
        for _ in 0..<count {
            guard let next = recurrence.next(after: cursor) else { break }
            dates.append(next)
            cursor = next
        }
        return dates
    }

    @Test func aSkippedTimeFiresOnceAtTheEndOfTheGap() {
        // Berlin, 2027-03-28: 02:00 CET becomes 03:00 CEST.
        let berlin = Self.occurrences(Self.daily(230, "Europe/Berlin"), from: "2027-03-26T12:00:00Z", count: 3)
        #expect(berlin == ["2027-03-27T01:30:00Z", "2027-03-28T01:00:00Z", "2027-03-29T00:30:00Z"].map(Self.instant))
        // New York, 2027-03-14: 02:00 EST becomes 03:00 EDT.
        let newYork = Self.occurrences(Self.daily(230, "America/New_York"), from: "2027-03-13T00:00:00Z", count: 3)
        #expect(newYork == ["2027-03-13T07:30:00Z", "2027-03-14T07:00:00Z", "2027-03-15T06:30:00Z"].map(Self.instant))
    }

    @Test func aRepeatedTimeFiresOnceAtItsFirstOccurrence() {
        // Berlin, 2027-10-31: 03:00 CEST becomes 02:00 CET, so 02:30 happens twice.
        let berlin = Self.occurrences(Self.daily(230, "Europe/Berlin"), from: "2027-10-30T12:00:00Z", count: 2)
        #expect(berlin == ["2027-10-31T00:30:00Z", "2027-11-01T01:30:00Z"].map(Self.instant))
        // New York, 2027-11-07: 02:00 EDT becomes 01:00 EST, so 01:30 happens twice.
        let newYork = Self.occurrences(Self.daily(130, "America/New_York"), from: "2027-11-06T12:00:00Z", count: 2)
        #expect(newYork == ["2027-11-07T05:30:00Z", "2027-11-08T06:30:00Z"].map(Self.instant))
        // A time away from the change keeps its local time on both sides of it.
        let morning = Self.occurrences(Self.daily(700, "Europe/Berlin"), from: "2027-10-30T00:00:00Z", count: 2)
        #expect(morning == ["2027-10-30T05:00:00Z", "2027-10-31T06:00:00Z"].map(Self.instant))
    }

    @Test func weekdaysAndCronAgree() throws {
        let weekdays = Recurrence(rule: .weekly(days: Set(1...5), minutes: [7 * 60]), timeZone: ZoneRules.named("Europe/Berlin")!)
        let cron = Recurrence(rule: .cron(try CronExpression("0 7 * * mon-fri")), timeZone: ZoneRules.named("Europe/Berlin")!)
        // Friday 2027-01-15 08:00 UTC onwards: Monday, Tuesday … (not the weekend).
        let a = Self.occurrences(weekdays, from: "2027-01-15T08:00:00Z", count: 5), b = Self.occurrences(cron, from: "2027-01-15T08:00:00Z", count: 5)
        #expect(a == b && a.first == Self.instant("2027-01-18T06:00:00Z") && a.count == 5)
        // Bin day: Tuesday evenings.
        let bins = Recurrence(rule: .cron(try CronExpression("30 19 * * 2")), timeZone: ZoneRules.named("UTC")!)
        #expect(bins.next(after: Self.instant("2027-01-15T08:00:00Z")) == Self.instant("2027-01-19T19:30:00Z"))
        // Both day fields restricted: either matches, as in cron.
        let either = Recurrence(rule: .cron(try CronExpression("0 12 1 * sun")), timeZone: ZoneRules.named("UTC")!)
        #expect(
            Self.occurrences(either, from: "2027-01-29T00:00:00Z", count: 3)
                == ["2027-01-31T12:00:00Z", "2027-02-01T12:00:00Z", "2027-02-07T12:00:00Z"].map(Self.instant))
        // A day field starting with `*` (here `*/2`) leaves the other deciding with it, as Vixie
        // cron's DOM_STAR does: odd days that are Mondays, not odd days or Mondays.
        let oddMondays = Recurrence(rule: .cron(try CronExpression("0 0 */2 * mon")), timeZone: ZoneRules.named("UTC")!)
        #expect(
            Self.occurrences(oddMondays, from: "2027-01-19T00:00:00Z", count: 3)
                == ["2027-01-25T00:00:00Z", "2027-02-01T00:00:00Z", "2027-02-15T00:00:00Z"].map(Self.instant))
        // And the other way round: the 1st of a month that falls on Sunday, Tuesday, Thursday or Saturday.
        let firsts = Recurrence(rule: .cron(try CronExpression("0 0 1 * */2")), timeZone: ZoneRules.named("UTC")!)
        #expect(
            Self.occurrences(firsts, from: "2027-01-02T00:00:00Z", count: 3)
                == ["2027-04-01T00:00:00Z", "2027-05-01T00:00:00Z", "2027-06-01T00:00:00Z"].map(Self.instant))
        // Steps and lists.
        let steps = try CronExpression("*/15 9-17/4 * jan,jul *")
        #expect(steps.minutes == [0, 15, 30, 45] && steps.hours == [9, 13, 17] && steps.months == [1, 7])
        // 29 February fires only in leap years.
        let leap = Recurrence(rule: .cron(try CronExpression("0 0 29 2 *")), timeZone: ZoneRules.named("UTC")!)
        #expect(leap.next(after: Self.instant("2027-01-01T00:00:00Z")) == Self.instant("2028-02-29T00:00:00Z"))
    }

    @Test func cronMistakesAreNamed() {
        func problem(_ text: String) -> String {
            do { _ = try CronExpression(text); return "" } catch { return error.description }
        }
        #expect(problem("0 0 31 2 *").contains("can never fire"))
        #expect(problem("0 7 * *").contains("five"))
        #expect(problem("60 7 * * *").contains("minute field") && problem("60 7 * * *").contains("0–59"))
        #expect(problem("0 7 * * funday").contains("day of week"))
        #expect(problem("0 7 * * 5-1").contains("backwards"))
        #expect(problem("0 */0 * * *").contains("step"))
    }

    @Test func theLatestMissedOccurrenceWithinTheWindow() {
        let hourly = Recurrence(rule: .cron(try! CronExpression("0 * * * *")), timeZone: ZoneRules.named("UTC")!)
        // The clock jumps from 01:10 to 09:20: only 09:00 is within a 30-minute window.
        #expect(
            hourly.latest(after: Self.instant("2027-01-01T01:10:00Z"), upTo: Self.instant("2027-01-01T09:20:00Z"), window: 1800)
                == Self.instant("2027-01-01T09:00:00Z"))
        #expect(hourly.latest(after: Self.instant("2027-01-01T01:10:00Z"), upTo: Self.instant("2027-01-01T09:40:00Z"), window: 1800) == nil)
    }
}
