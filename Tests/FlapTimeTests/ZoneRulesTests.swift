import FlapCore
import Foundation
import Testing

@testable import FlapTime

/// flapd's own reading of the system's time zones (it links no ICU) against Foundation's, which
/// the tests may link: the same offset at every instant and the same transitions, from 1970 into
/// the years only the POSIX rule at the end of each file covers.
@Suite struct ZoneRulesTests {
    static let zones = [
        "Europe/Berlin", "Europe/London", "Europe/Dublin", "Europe/Zurich", "America/New_York", "America/Los_Angeles",
        "America/St_Johns", "America/Sao_Paulo", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland",
        "Pacific/Chatham", "Asia/Kolkata", "Asia/Tehran", "Asia/Tokyo", "Africa/Casablanca", "America/Santiago"
    ]

    @Test(arguments: zones) func offsetsAndTransitionsAreFoundationsFrom1970To2060(_ name: String) throws {
        let ours = try #require(ZoneRules.named(name), "the system has no \(name)")
        let theirs = try #require(TimeZone(identifier: name))
        // Every 6 hours and 17 minutes, so every hour of the day and every day of the week is met.
        var instant = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 2_840_000_000)  // 2059
        var mismatches: [String] = []
        while instant < end, mismatches.count < 5 {
            if ours.secondsFromGMT(for: instant) != theirs.secondsFromGMT(for: instant) {
                mismatches.append("\(instant): \(ours.secondsFromGMT(for: instant)) s, Foundation \(theirs.secondsFromGMT(for: instant)) s")
            }
            instant += 6 * 3600 + 17 * 60
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches)")
        // Transitions from 2020 to 2050, one after the other.
        var cursor = Date(timeIntervalSince1970: 1_577_836_800)
        for _ in 0..<60 {
            let expected = theirs.nextDaylightSavingTimeTransition(after: cursor)
            let found = ours.nextTransition(after: cursor)
            guard let expected else { break }
            #expect(found == expected, "\(name): after \(cursor), \(String(describing: found)) instead of \(expected)")
            guard let found, found == expected else { break }
            cursor = found
        }
    }

    @Test func aSkippedWallTimeIsTheEndOfTheGapAndARepeatedOneItsFirstOccurrence() throws {
        let berlin = try #require(ZoneRules.named("Europe/Berlin"))
        // 2026-03-29: clocks go from 02:00 to 03:00 (01:00 UTC). 02:30 does not exist.
        let spring = CivilDate.days(year: 2026, month: 3, day: 29) * 86400
        #expect(berlin.instant(wall: spring + 2 * 3600 + 1800) == Date(timeIntervalSince1970: TimeInterval(spring + 3600)))
        // 2026-10-25: 03:00 back to 02:00 (01:00 UTC). 02:30 happens at 00:30 and 01:30 UTC.
        let autumn = CivilDate.days(year: 2026, month: 10, day: 25) * 86400
        #expect(berlin.instant(wall: autumn + 2 * 3600 + 1800) == Date(timeIntervalSince1970: TimeInterval(autumn + 1800)))
        #expect(berlin.minuteOfDay(at: Date(timeIntervalSince1970: TimeInterval(autumn + 1800))) == 150)
        #expect(berlin.minuteOfDay(at: Date(timeIntervalSince1970: TimeInterval(autumn + 5400))) == 150)
    }

    @Test func aPosixRuleAloneGivesTheSameOffsetsAsTheZone() throws {
        let rule = try #require(ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5.0/3"))
        let berlin = try #require(ZoneRules.named("Europe/Berlin"))
        var instant = Date(timeIntervalSince1970: 1_600_000_000)
        while instant < Date(timeIntervalSince1970: 1_700_000_000) {
            #expect(rule.secondsFromGMT(for: instant) == berlin.secondsFromGMT(for: instant))
            instant += 7 * 3600 + 11 * 60
        }
        #expect(ZoneRules(posix: "<+0330>-3:30")?.secondsFromGMT(for: instant) == 12600)
        #expect(ZoneRules(posix: "EST5EDT,M3.2.0,M11.1.0")?.secondsFromGMT(for: Date(timeIntervalSince1970: 1_780_000_000)) == -4 * 3600)
        #expect(ZoneRules(posix: "not a rule") == nil)
    }

    @Test func namesThatAreNotZonesAreRefusedAndNothingOutsideZoneinfoIsRead() {
        #expect(ZoneRules.named("Mars/Olympus_Mons") == nil)
        #expect(ZoneRules.named("../../etc/passwd") == nil)
        #expect(ZoneRules.named("/etc/localtime") == nil)
        #expect(ZoneRules.named("UTC") == .utc)
        #expect(throws: ZoneRules.TZifError.self) { try ZoneRules(tzif: Array("not a zone".utf8), identifier: "x") }
    }

    @Test func theSystemZoneFollowsTZ() {
        #expect(ZoneRules.current(environment: ["TZ": "America/New_York"]).identifier == "America/New_York")
        #expect(ZoneRules.current(environment: ["TZ": ":Asia/Tokyo"]).secondsFromGMT(for: Date()) == 9 * 3600)
        #expect(ZoneRules.current(environment: ["TZ": "JST-9"]).secondsFromGMT(for: Date()) == 9 * 3600)
        #expect(ZoneRules.current(environment: [:], localtime: "/nonexistent").identifier == "UTC")
    }
}
