import FlapClocks
import FlapCore
import FlapMessaging
import FlapTime
import Foundation
import Logging
import TestSupport
import Testing

/// The days a schedule runs on, as people write them, and when it next runs across a week's end
/// and a daylight-saving change, on a manual clock.
@Suite(.timeLimit(.minutes(5))) struct ScheduleDaysTests {
    static func days(_ entries: String...) throws -> [Int] { try ScheduleDays.read(entries).weekdays.sorted() }

    @Test func rangesListsNamesAndWordsAreReadAsTheyAreMeant() throws {
        #expect(try Self.days("mon-fri") == [1, 2, 3, 4, 5])
        #expect(try Self.days("fri-mon") == [0, 1, 5, 6], "across the week's end")
        #expect(try Self.days("sat,sun") == [0, 6])
        #expect(try Self.days("Sat", " sun ") == [0, 6])
        #expect(try Self.days("Monday-Wednesday") == [1, 2, 3])
        #expect(try Self.days("tues, thurs") == [2, 4])
        #expect(try Self.days("weekdays") == [1, 2, 3, 4, 5])
        #expect(try Self.days("weekends", "wed") == [0, 3, 6])
        #expect(try Self.days("daily") == Array(0...6))
        #expect(try Self.days("sun-sun") == [0])
        #expect(try ScheduleDays.read(nil).weekdays == Set(0...6))
    }

    /// `[]`, `null`, `--days ""` and `--days ","` meant every day, while `[""]` was refused and
    /// `"mon,,tue"` accepted: no day at all, and an empty entry, are refused the same way everywhere.
    @Test func noDayAtAllIsRefusedAndErrorsQuoteWhatWasWritten() {
        for entries in [[], [""], [","], ["  "], [" , "]] {
            #expect(throws: ScheduleError.self, "\(entries)") { try ScheduleDays.read(entries) }
            do { _ = try ScheduleDays.read(entries) } catch {
                #expect(error.problem.hasPrefix("names no day: leave days out (or write daily)"), "\(entries): \(error.problem)")
            }
        }
        do { _ = try ScheduleDays.read(["mon,,tue"]); Issue.record("an empty entry was read") } catch {
            #expect(error.problem == "\"mon,,tue\" has an empty entry between its commas")
        }
        do { _ = try ScheduleDays.read(["Mon", "Kon"]); Issue.record("Kon was read") } catch {
            #expect(error.problem.hasPrefix("\"Kon\" is not a day"), "as typed, not folded: \(error.problem)")
        }
        do { _ = try ScheduleDays.read([String](repeating: "mon", count: 7_500)); Issue.record("7 500 entries were read") } catch {
            #expect(error.problem.hasPrefix("is 22500 characters long; a week's days take at most 256"), "\(error.problem)")
        }
        do { _ = try ScheduleDays.read([String](repeating: "m", count: 40)); Issue.record("40 entries were read") } catch {
            #expect(error.problem == "has 40 entries; at most 32", "\(error.problem)")
        }
    }

    @Test func daysAreKeptAsTheDaysTheyMean() throws {
        #expect(try ScheduleDays.read(["Monday - Friday".replacingOccurrences(of: " ", with: "")]).names == ["weekdays"])
        #expect(try ScheduleDays.read(["sun", "SAT"]).names == ["weekends"])
        #expect(try ScheduleDays.read(["fri-mon"]).names == ["mon", "fri", "sat", "sun"])
        #expect(try ScheduleDays.read(["weekdays", "weekends"]).names == ["daily"])
        #expect(try ScheduleDays.read(["wed, tues"]).names == ["tue", "wed"])
    }

    @Test func anythingElseIsRefusedNamingTheWordThatIsWrong() {
        for (entry, named) in [
            ("monkey", "\"monkey\" is not a day"), ("mon-fry", "\"fry\" (in \"mon-fry\") is not a day"),
            ("mon-", "\"mon-\" is not a day"), ("mon-tue-wed", "\"mon-tue-wed\" is not a day"),
            ("weekday", "\"weekday\" is not a day"), ("mo", "\"mo\" is not a day")
        ] {
            #expect(throws: ScheduleError.self, "\(entry)") { try ScheduleDays.read([entry]) }
            do {
                _ = try ScheduleDays.read([entry])
            } catch {
                #expect(error.field == "days" && error.problem.hasPrefix(named), "\(entry): \(error.problem)")
                #expect(error.problem.contains("mon-fri"), "the refusal shows what is accepted")
            }
        }
    }

    func runner(_ rig: TimeRig, _ definition: ScheduleSettings) -> ScheduleRunner<ManualClock> {
        let intake = MessageIntake(inbox: rig.inbox, boardSize: .flagship, now: rig.time.now)
        return ScheduleRunner(
            inbox: rig.inbox, intake: intake, time: rig.time, trust: rig.trust, fromFile: [definition],
            systemZone: ZoneRules.named("UTC")!, logger: Logger(label: "test"))
    }

    @Test func monToFriAddedOnAThursdayRunsFridayThenMondayAcrossTheWeeksEnd() async throws {
        let rig = try TimeRig(t0: Date(timeIntervalSince1970: 1_795_680_000))  // Thursday 2026-11-26 08:00 UTC
        let runner = runner(rig, ScheduleRunnerTests.schedule("morning", days: ["mon-fri"], times: ["07:00"], text: "GOOD MORNING"))
        #expect(await runner.list().first?.next == Date(timeIntervalSince1970: 1_795_762_800))  // Friday 07:00
        let running = Task { await runner.run() }
        defer { running.cancel() }
        await rig.drive(to: 1_795_762_800 - 1_795_680_000)
        _ = try await rig.slotIDs(expecting: [try await rig.occurrence("morning", 1795762800)])
        #expect(await runner.list().first?.next == Date(timeIntervalSince1970: 1_796_022_000))  // Monday 07:00, not Saturday
    }

    @Test func friToMonInBerlinKeepsSevenOClockAcrossTheSpringChange() async throws {
        let rig = try TimeRig(t0: Date(timeIntervalSince1970: 1_806_048_000))  // Friday 2027-03-26 08:00 UTC, 09:00 in Berlin
        var definition = ScheduleRunnerTests.schedule("weekend", days: ["fri-mon"], times: ["07:00"], text: "LIE IN")
        definition.timeZone = "Europe/Berlin"
        let runner = runner(rig, definition)
        // Saturday 07:00 CET, Sunday and Monday 07:00 CEST (the clocks go forward early on Sunday), then
        // Friday: what the book says is next, each time the clock has passed the one before.
        for due in [1_806_127_200, 1_806_210_000, 1_806_296_400, 1_806_642_000] {
            #expect(await runner.list().first?.next == Date(timeIntervalSince1970: TimeInterval(due)))
            rig.clock.jump(by: rig.clock.now.duration(to: rig.start.advanced(by: .seconds(due - 1_806_048_000 + 1))))
        }
    }
}
