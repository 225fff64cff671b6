import FlapCore
import FlapTime
import Foundation
import TestSupport
import Testing

/// Sunrise and sunset against astral (PyPI), another implementation of NOAA's solar equations:
/// eight latitudes from Ushuaia to Svalbard, the 15th of every month and both solstices. Within
/// two minutes below the polar circles, five above (where the sun grazes the horizon, a small
/// difference in its height is minutes); the sun up or down all day on the same days, but for
/// the day it first comes back, which the two may place a day apart (the sun up for minutes).
@Suite struct SunTimesTests {
    struct Place { var name: String; var latitude: Double; var longitude: Double; var offset: Int }

    static let places = [
        Place(name: "Ushuaia", latitude: -54.8, longitude: -68.3, offset: -3), Place(name: "Sydney", latitude: -33.87, longitude: 151.21, offset: 10),
        Place(name: "Quito", latitude: -0.18, longitude: -78.47, offset: -5), Place(name: "New York", latitude: 40.71, longitude: -74.01, offset: -5),
        Place(name: "Berlin", latitude: 52.52, longitude: 13.4, offset: 1), Place(name: "Reykjavik", latitude: 64.15, longitude: -21.94, offset: 0),
        Place(name: "Tromsø", latitude: 69.65, longitude: 18.96, offset: 1), Place(name: "Longyearbyen", latitude: 78.22, longitude: 15.65, offset: 1)
    ]

    static let dates = (1...12).map { (2026, $0, 15) } + [(2026, 6, 21), (2026, 12, 21)]

    static func iso(_ day: Int64) -> String {
        let date = CivilDate(day: day)
        return String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    @Test func sunriseAndSunsetAgreeWithAstral() async throws {
        // Astral answers the event that falls on a date; flapd the one of that day's sun (a
        // sunset just after midnight belongs to the evening before): each is compared with the
        // nearest of astral's on the day before, the day and the day after.
        var asked: [(Place, Int64)] = []
        var input = ""
        for place in Self.places {
            for (year, month, day) in Self.dates {
                let number = CivilDate.days(year: year, month: month, day: day)
                asked.append((place, number))
                for near in (number - 1)...(number + 1) {
                    input +=
                        #"{"latitude": \#(place.latitude), "longitude": \#(place.longitude), "date": "\#(Self.iso(near))", "offset": \#(place.offset)}"#
                        + "\n"
                }
            }
        }
        let output = try await PythonPeer.runScript("sun_peer.py", input: Data(input.utf8))
        let answers = try String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        try #require(answers.count == asked.count * 3)
        var compared = 0
        for (index, (place, day)) in asked.enumerated() {
            let location = GeoLocation(latitude: place.latitude, longitude: place.longitude)
            let near = answers[(3 * index)..<(3 * index + 3)]
            let tolerance: TimeInterval = abs(place.latitude) < 66 ? 120 : 300
            for event in [SunTimes.Event.sunrise, .sunset] {
                let ours = SunTimes.instant(of: event, day: day, at: location)
                let theirs = near.compactMap { ($0[event.rawValue] as? Double).map(Date.init(timeIntervalSince1970:)) }
                let what = "\(place.name) \(Self.iso(day)) \(event)"
                guard let ours else {
                    #expect(near.dropFirst().first?[event.rawValue] as? Double == nil, "\(what): astral has one, flapd none")
                    continue
                }
                guard let nearest = theirs.min(by: { abs($0.timeIntervalSince(ours)) < abs($1.timeIntervalSince(ours)) }),
                    abs(nearest.timeIntervalSince(ours)) < 12 * 3600
                else {
                    // Astral has none: only on the day the sun first comes back, up for minutes.
                    let other = SunTimes.instant(of: event == .sunrise ? .sunset : .sunrise, day: day, at: location)
                    #expect(other.map { abs($0.timeIntervalSince(ours)) < 3 * 3600 } == true, "\(what): flapd has one, astral none")
                    continue
                }
                #expect(abs(nearest.timeIntervalSince(ours)) < tolerance, "\(what): flapd \(ours), astral \(nearest)")
                compared += 1
            }
        }
        #expect(compared > 180, "most days have both events")
    }

    @Test func polarNightAndMidnightSunHaveNoEvent() {
        let svalbard = GeoLocation(latitude: 78.22, longitude: 15.65)
        for (month, day) in [(12, 21), (1, 5)] {
            #expect(SunTimes.instant(of: .sunrise, day: CivilDate.days(year: 2026, month: month, day: day), at: svalbard) == nil)
        }
        #expect(SunTimes.instant(of: .sunset, day: CivilDate.days(year: 2026, month: 6, day: 21), at: svalbard) == nil)
        #expect(
            SunTimes.instant(of: .sunset, day: CivilDate.days(year: 2026, month: 6, day: 21), at: GeoLocation(latitude: 52.52, longitude: 13.4))
                != nil)
    }
}
