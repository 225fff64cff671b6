import FlapControl
import FlapCore
import FlapSources
import Foundation

/// `flapbench --sources`: what a content source costs each time a template or a trigger reads
/// it: a calendar's values (its occurrences over the next 400 days worked out) for a household's
/// calendar and for a large one (300 events repeating weekly since 2012 and 2 000 single ones),
/// and reading each file.
struct SourcesBench {
    let seconds: Double
    let output: StandardStream

    func run() throws {
        let zone = ZoneRules.named("Europe/Berlin") ?? .utc
        let now = Date(timeIntervalSince1970: 1_795_672_800)
        for (name, text) in [("household calendar, 15 events", Self.household), ("large calendar, 2 300 events", Self.large)] {
            let bytes = Array(text.utf8)
            let definition = SourceSettings(name: "family", kind: .calendar, options: .init(countdown: "holiday"), url: "/x")
            var calendar = try Calendar(bytes: bytes)
            let read = time { calendar = try! Calendar(bytes: bytes) }
            write("\(name): read \(bytes.count / 1024) KB", read)
            let values = time {
                _ = SourceValues.values(of: definition, content: SourceContent(calendar), fresh: true, updated: now, now: now, zone: zone)
            }
            write("\(name): values at an instant", values)
        }
    }

    /// The median of as many runs as fit in `seconds` (at least 5).
    private func time(_ body: () -> Void) -> String {
        var times: [Duration] = []
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end || times.count < 5 {
            let began = ContinuousClock.now
            body()
            times.append(began.duration(to: .now))
        }
        times.sort()
        return "median \(WematchBench.microseconds(times[times.count / 2]))  (\(times.count) runs)"
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 64, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }

    static var household: String {
        (try? String(contentsOfFile: "Tests/FlapSourcesTests/Fixtures/household.ics", encoding: .utf8)) ?? large
    }

    static let large: String = {
        var ics = "BEGIN:VCALENDAR\n"
        for i in 0..<300 {
            ics +=
                "BEGIN:VEVENT\nUID:r\(i)\nSUMMARY:Weekly \(i)\nDTSTART;TZID=Europe/Berlin:2012\(String(format: "%02d", i % 12 + 1))10T0\(i % 10)0000\n"
                + "DURATION:PT1H\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE\nEND:VEVENT\n"
        }
        for i in 0..<2000 {
            ics +=
                "BEGIN:VEVENT\nUID:s\(i)\nSUMMARY:Single \(i)\nDTSTART:2025\(String(format: "%02d", i % 12 + 1))\(String(format: "%02d", i % 28 + 1))T100000Z\n"
                + "DURATION:PT1H\nEND:VEVENT\n"
        }
        return ics + "END:VCALENDAR\n"
    }()
}
