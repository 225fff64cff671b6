import FlapCore
import Foundation
import Testing

@testable import FlapSources

/// A shared calendar is written by whoever sends an invitation: what one file can make flapd
/// work out is bounded (Calendar.Budget), and what is over it is left out and named.
@Suite struct CalendarBudgetTests {
    static func calendar(_ events: [String]) -> [UInt8] {
        Array((["BEGIN:VCALENDAR", "VERSION:2.0"] + events + ["END:VCALENDAR", ""]).joined(separator: "\r\n").utf8)
    }

    static func bomb(_ index: Int) -> String {
        [
            "BEGIN:VEVENT", "UID:bomb-\(index)", "SUMMARY:Bomb \(index)", "DTSTART:00010101T000000",
            "RRULE:FREQ=YEARLY;COUNT=1000000000;BYDAY=MO,TU,WE,TH,FR,SA,SU", "END:VEVENT"
        ].joined(separator: "\r\n")
    }

    // 2026-11-26 and 7 days on, Berlin.
    static let week = (from: Date(timeIntervalSince1970: 1_795_647_600), to: Date(timeIntervalSince1970: 1_796_252_400))

    /// Ten events from the year 1 with a billion occurrences each (1.5 KB) froze flapd for a
    /// minute: their series are worked out by whole 400-year cycles, and they are every day.
    @Test func aBillionOccurrencesFromTheYearOneAreWorkedOutByCycles() throws {
        let calendar = try Calendar(bytes: Self.calendar((0..<2).map(Self.bomb)))
        #expect(calendar.warnings.isEmpty, "\(calendar.warnings)")
        let week = calendar.occurrences(from: Self.week.from, to: Self.week.to, zone: CalendarTests.berlin)
        #expect(week.count == 14)
    }

    /// 4 000 of them ran for 7 minutes: past the budget they are left out, and named (a budget
    /// of a tenth of flapd's here, and a tenth of the events, to keep the test quick).
    @Test func overTheBudgetEventsAreLeftOutAndNamed() throws {
        var budget = Calendar.Budget()
        budget.countedDays /= 10
        let calendar = try Calendar(bytes: Self.calendar((0..<400).map(Self.bomb)), budget: budget)
        let kept = calendar.events.count
        #expect(kept > 0 && kept < 10, "\(kept) kept")
        #expect(calendar.warnings.count == 1)
        #expect(
            calendar.warnings.first?.hasPrefix("\(400 - kept) recurring events are left out: the calendar has more repeats than flapd works out")
                == true,
            "\(calendar.warnings)")
        #expect(calendar.warnings.first?.contains("\"Bomb \(kept)\"") == true)
        let week = calendar.occurrences(from: Self.week.from, to: Self.week.to, zone: CalendarTests.berlin)
        #expect(week.count == kept * 7)
        // Past the recurring events a calendar may hold: left out too.
        budget = Calendar.Budget()
        budget.recurringEvents = 3
        let daily = (0..<5).map {
            ["BEGIN:VEVENT", "SUMMARY:Daily \($0)", "DTSTART:20261101T090000", "RRULE:FREQ=DAILY", "END:VEVENT"].joined(separator: "\r\n")
        }
        let capped = try Calendar(bytes: Self.calendar(daily), budget: budget)
        #expect(capped.events.map(\.title) == ["Daily 0", "Daily 1", "Daily 2"])
        #expect(capped.warnings.first?.hasPrefix("2 recurring events are left out") == true, "\(capped.warnings)")
    }

    /// COUNT counts from DTSTART: the arithmetic skip gives the series the same end as walking it.
    @Test func skippingWholeCyclesEndsTheSeriesWhereWalkingDoes() throws {
        let rules = [
            // Each past one 400-year cycle, so that whole cycles are skipped.
            "FREQ=DAILY;COUNT=150001", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR;COUNT=30001", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=150"
        ]
        for text in rules {
            let rule = try RecurrenceRule(text, line: 1, zone: nil)
            let start = try CalendarTime.parse("17000101T090000", zone: nil, line: 1, property: "DTSTART")
            var budget = Int.max
            guard case .at(let end) = rule.seriesEnd(from: start, budget: &budget) else { Issue.record("\(text): no end"); continue }
            // Walked the long way, period by period from DTSTART: exactly COUNT occurrences up to that end.
            var walkBudget = Int.max
            let all = rule.walls(from: start, through: end, budget: &walkBudget) { _ in false }
            #expect(all.count == rule.count!, "\(text)")
            #expect(all.last == end, "\(text)")
        }
    }

    /// A rule no day matches ends at once, and an interval or a duration past any board's
    /// reach is refused rather than overflowing.
    @Test func impossibleRulesAndHugeNumbersEndOrAreRefused() throws {
        let never = try RecurrenceRule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31;COUNT=5", line: 3, zone: nil)
        var budget = Calendar.Budget().countedDays
        #expect(
            never.seriesEnd(from: try CalendarTime.parse("00010101", zone: nil, line: 2, property: "DTSTART"), budget: &budget)
                == .at(-62_135_596_800 - 1))
        #expect(budget > Calendar.Budget().countedDays - 200_000)
        #expect(throws: SourceProblem.self) { try RecurrenceRule("FREQ=DAILY;INTERVAL=9223372036854775807", line: 4, zone: nil) }
        let huge = Self.calendar([
            "BEGIN:VEVENT", "SUMMARY:Long", "DTSTART:20261126T090000", "DURATION:P999999999W999999999D", "END:VEVENT",
            "BEGIN:VEVENT", "SUMMARY:Longer", "DTSTART:20261126T090000", "DURATION:P9999999999999999999W", "END:VEVENT"
        ])
        let calendar = try Calendar(bytes: huge)
        #expect(calendar.events.map(\.title) == ["Long"])
        #expect(calendar.warnings.first?.contains("at most 9 digits a part") == true, "\(calendar.warnings)")
    }
}
