import FlapClocks
import FlapCore
import FlapJSON
import Foundation
import TestSupport
import Testing

@testable import FlapSources

/// Sources fetched from a web server on 127.0.0.1 (Tests/Peers/content_server.py), on a manual
/// clock: nothing leaves the machine.
@Suite(.cleansUp) struct SourceHubTests {
    /// A hub over the content server, its state in a folder of its own, its time moved by hand.
    final class Bench: Sendable {
        let server: ContentServer
        let clock = ManualClock()
        let start = Date(timeIntervalSince1970: 1_795_672_800)  // 2026-11-26 06:00 UTC, a Thursday
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sources-\(UUID().uuidString)").path
        let logs = LogLines()

        init() async throws { server = try await ContentServer.start() }

        var now: Date { start.addingTimeInterval(TimeInterval(clock.now.offset.components.seconds)) }

        func hub(_ definitions: [SourceSettings]) -> SourceHub<ManualClock> {
            SourceHub(
                definitions: definitions, zone: CalendarTests.berlin, stateDirectory: directory, clock: clock,
                now: { [self] in now }, logger: logs.logger)
        }

        func url(_ path: String) -> String { server.base + path }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs `hub` for the length of `body`.
    static func running<T>(_ hub: SourceHub<ManualClock>, _ body: () async throws -> T) async throws -> T {
        let task = Task { await hub.run() }
        defer { task.cancel() }
        let result = try await body()
        task.cancel()
        await task.value
        return result
    }

    static func weather(
        _ bench: Bench, every: Duration = .seconds(600), staleAfter: Duration? = nil, timeout: Duration = .seconds(20)
    ) -> SourceSettings {
        SourceSettings(
            name: "weather", kind: .json,
            options: .init(pointers: [
                "temperature": "/current/temperature_2m", "code": "/current/weather_code", "tomorrow": "/daily/temperature_2m_max/1"
            ]),
            url: bench.url("/v1/forecast?latitude=52.52&longitude=13.41"), every: every, staleAfter: staleAfter, timeout: timeout)
    }

    static func value(_ hub: SourceHub<ManualClock>, _ bench: Bench, _ source: String, _ name: String) -> JSONValue? {
        hub.shelf.props(at: bench.now)[source]?[name]
    }

    static func health(_ hub: SourceHub<ManualClock>, _ bench: Bench, _ source: String) -> SourceHealth? {
        hub.shelf.health(at: bench.now).first { $0.name == source }
    }

    @Test func openMeteoValuesByPointerThenA304KeepsThem() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let path = "/v1/forecast?latitude=52.52&longitude=13.41"
        try await bench.server.route(path, body: Data(try CalendarTests.fixture("open-meteo.json")), contentType: "application/json", etag: "\"w1\"")
        let hub = bench.hub([Self.weather(bench)])
        #expect(Self.value(hub, bench, "weather", "temperature") == "--")
        #expect(Self.value(hub, bench, "weather", "stale") == true)
        try await Self.running(hub) {
            #expect(try await eventually { Self.health(hub, bench, "weather")?.state == .ok })
            #expect(Self.value(hub, bench, "weather", "temperature") == 3.4)
            #expect(Self.value(hub, bench, "weather", "code") == 3)
            #expect(Self.value(hub, bench, "weather", "tomorrow") == 6.3)
            #expect(Self.value(hub, bench, "weather", "stale") == false)
            #expect(Self.value(hub, bench, "weather", "updated") == "07:00")
            // Ten minutes on, it asks again with the ETag and is told nothing changed.
            await bench.clock.sleepers(atLeast: 1)
            await bench.clock.advance(by: .seconds(600))
            #expect(
                try await eventually { try await bench.server.requests(path).count == 2 && Self.value(hub, bench, "weather", "updated") == "07:10" })
            let second = try await bench.server.requests(path)[1]
            #expect(second.status == 304)
            #expect(second.header("If-None-Match") == "\"w1\"")
            #expect(Self.value(hub, bench, "weather", "temperature") == 3.4)
            #expect(Self.health(hub, bench, "weather")?.from == "127.0.0.1:\(bench.server.port)")
        }
    }

    @Test func aHomeAssistantEntityWithItsTokenFromAFileNeverShown() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        try await bench.server.route(
            "/api/states/sensor.outdoor_temperature", body: Data(try CalendarTests.fixture("home-assistant-state.json")),
            contentType: "application/json", lastModified: "Thu, 26 Nov 2026 06:58:12 GMT")
        try FileManager.default.createDirectory(atPath: bench.directory, withIntermediateDirectories: true)
        let tokenFile = bench.directory + "/ha-token"
        try "Bearer secret-long-lived-token\n".write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let outside = SourceSettings(
            name: "outside", kind: .json,
            options: .init(pointers: ["temperature": "/state", "unit": "/attributes/unit_of_measurement", "humidity": "/attributes/humidity"]),
            url: bench.url("/api/states/sensor.outdoor_temperature"),
            headers: ["Accept": "application/json"], headerFiles: ["Authorization": tokenFile])
        let hub = bench.hub([outside])
        try await Self.running(hub) {
            #expect(try await eventually { Self.health(hub, bench, "outside")?.state == .ok })
            #expect(Self.value(hub, bench, "outside", "temperature") == "4.2")
            #expect(Self.value(hub, bench, "outside", "unit") == "°C")
            // A value the entity lacks is the placeholder, and the health says why.
            #expect(Self.value(hub, bench, "outside", "humidity") == "--")
            #expect(Self.health(hub, bench, "outside")?.warnings == ["humidity: /attributes/humidity is not in the document"])
            let request = try #require(try await bench.server.requests().first)
            #expect(request.header("Authorization") == "Bearer secret-long-lived-token")
            #expect(request.header("Accept") == "application/json")
            hub.refresh("outside")
            #expect(try await eventually { try await bench.server.requests().count == 2 })
            #expect(try await bench.server.requests()[1].header("If-Modified-Since") == "Thu, 26 Nov 2026 06:58:12 GMT")
        }
        let health = String(decoding: try JSONEncoder().encode(hub.shelf.health(at: bench.now)), as: UTF8.self)
        #expect(!health.contains("secret"))
        #expect(!bench.logs.all.joined().contains("secret"))
    }

    @Test func aFailingServerKeepsTheLastGoodValueUntilItIsStale() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let path = "/v1/forecast?latitude=52.52&longitude=13.41"
        try await bench.server.route(path, body: Data(try CalendarTests.fixture("open-meteo.json")), contentType: "application/json")
        let hub = bench.hub([Self.weather(bench, every: .seconds(600), staleAfter: .seconds(3600))])
        try await Self.running(hub) {
            #expect(try await eventually { Self.value(hub, bench, "weather", "temperature") == 3.4 })
            try await bench.server.route(path, status: 500, body: Data("<html>Internal Server Error</html>".utf8))
            await bench.clock.sleepers(atLeast: 1)
            await bench.clock.advance(by: .seconds(600))
            #expect(try await eventually { Self.health(hub, bench, "weather")?.state == .failing })
            let failing = try #require(Self.health(hub, bench, "weather"))
            #expect(failing.error == "the server answered 500 Internal Server Error")
            #expect(failing.failures == 1)
            // Tried again after 30 s, then a minute: backing off.
            #expect(failing.nextAttempt == bench.now.addingTimeInterval(30))
            #expect(Self.value(hub, bench, "weather", "temperature") == 3.4)
            #expect(bench.logs.all.filter { $0.contains("could not be fetched") }.count == 1)
            await bench.clock.advance(by: .seconds(30))
            #expect(try await eventually { Self.health(hub, bench, "weather")?.failures == 2 })
            #expect(Self.health(hub, bench, "weather")?.nextAttempt == bench.now.addingTimeInterval(60))
            // An hour after the last good answer, the value is stale: templates show the placeholder.
            await bench.clock.advance(by: .seconds(3000))
            #expect(try await eventually { Self.health(hub, bench, "weather")?.state == .stale })
            #expect(Self.value(hub, bench, "weather", "temperature") == "--")
            #expect(Self.value(hub, bench, "weather", "stale") == true)
            // One warning for the whole outage, not one per try; and one line when it is back.
            #expect(bench.logs.all.filter { $0.contains("could not be fetched") }.count == 1)
            try await bench.server.route(path, body: Data(try CalendarTests.fixture("open-meteo.json")), contentType: "application/json")
            hub.refresh("weather")
            #expect(try await eventually { Self.health(hub, bench, "weather")?.state == .ok })
            #expect(bench.logs.all.contains { $0.contains("a source answers again") })
        }
    }

    @Test func aHangingServerTimesOutAndGarbageIsRefusedKeepingTheLastGood() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let path = "/v1/forecast?latitude=52.52&longitude=13.41"
        try await bench.server.route(path, body: Data(try CalendarTests.fixture("open-meteo.json")), contentType: "application/json")
        // Long enough that a busy machine's first good answer is never taken for a hang.
        let hub = bench.hub([Self.weather(bench, timeout: .seconds(10))])
        try await Self.running(hub) {
            #expect(try await eventually { Self.value(hub, bench, "weather", "temperature") == 3.4 })
            try await bench.server.route(path, body: Data("<!DOCTYPE html><html><title>Captive portal</title>".utf8), contentType: "text/html")
            hub.refresh("weather")
            #expect(try await eventually { Self.health(hub, bench, "weather")?.failures == 1 })
            #expect(
                Self.health(hub, bench, "weather")?.error
                    == #"the answer is not JSON (it starts "<!DOCTYPE html><html><title>Captive portal</title>")"#)
            #expect(Self.value(hub, bench, "weather", "temperature") == 3.4)
            try await bench.server.route(path, mode: "hang")
            hub.refresh("weather")
            #expect(try await eventually { Self.health(hub, bench, "weather")?.failures == 2 })
            #expect(Self.health(hub, bench, "weather")?.error == "no answer within 10 s")
            try await bench.server.route(path, mode: "drop")
            hub.refresh("weather")
            #expect(try await eventually { Self.health(hub, bench, "weather")?.failures == 3 })
            #expect(Self.value(hub, bench, "weather", "temperature") == 3.4)
        }
    }

    @Test func theLastGoodValueIsThereAfterARestartBeforeAnyFetch() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let path = "/v1/forecast?latitude=52.52&longitude=13.41"
        try await bench.server.route(path, body: Data(try CalendarTests.fixture("open-meteo.json")), contentType: "application/json", etag: "\"w1\"")
        let first = bench.hub([Self.weather(bench)])
        try await Self.running(first) { () async throws in
            #expect(try await eventually { Self.value(first, bench, "weather", "temperature") == 3.4 })
        }
        try await bench.server.route(path, status: 503, retryAfter: 7200)
        await bench.clock.advance(by: .seconds(120))
        let again = bench.hub([Self.weather(bench)])
        #expect(Self.value(again, bench, "weather", "temperature") == 3.4)
        #expect(Self.value(again, bench, "weather", "updated") == "07:00")
        try await Self.running(again) { () async throws in
            // Fetched two minutes ago: it waits the rest of its ten.
            #expect(try await eventually { Self.health(again, bench, "weather")?.nextAttempt == bench.now.addingTimeInterval(480) })
            #expect(try await bench.server.requests(path).count == 1)
            await bench.clock.sleepers(atLeast: 1)
            await bench.clock.advance(by: .seconds(480))
            #expect(try await eventually { Self.health(again, bench, "weather")?.failures == 1 })
            // A 503's Retry-After of two hours is honoured.
            #expect(Self.health(again, bench, "weather")?.nextAttempt == bench.now.addingTimeInterval(7200))
            #expect(try await bench.server.requests(path).last?.header("If-None-Match") == "\"w1\"")
        }
    }

    @Test func feedsAndACalendarGiveTheirValues() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        try await bench.server.route("/news.rss", body: Data(try CalendarTests.fixture("news.rss")), contentType: "application/rss+xml")
        try await bench.server.route("/releases.atom", body: Data(try CalendarTests.fixture("releases.atom")), contentType: "application/atom+xml")
        try await bench.server.route("/family.ics", body: Data(try CalendarTests.fixture("household.ics")), contentType: "text/calendar")
        let hub = bench.hub([
            SourceSettings(name: "news", kind: .feed, options: .init(limit: 2), url: bench.url("/news.rss")),
            SourceSettings(name: "releases", kind: .feed, options: .init(), url: bench.url("/releases.atom")),
            SourceSettings(name: "family", kind: .calendar, options: .init(limit: 6, countdown: "holiday"), url: bench.url("/family.ics"))
        ])
        try await Self.running(hub) {
            let allOK = { hub.shelf.health(at: bench.now).allSatisfy { $0.state == .ok } }
            #expect(try await eventually { allOK() })
            let props = hub.shelf.props(at: bench.now)
            #expect(props["news"]?["headline"] == "Library opens late on Thursdays & Fridays")
            #expect(props["news"]?["headlines"] == [["title": "Library opens late on Thursdays & Fridays"], ["title": "Snow expected this weekend"]])
            #expect(props["news"]?["title"] == "Town & Country News")
            #expect(props["releases"]?["headline"] == "Version 2.4 & notes")
            // Thursday 26 November 2026, 07:00 in Berlin: swimming at 17:00 (every other week),
            // then the cousins' call at 18:00 (12:00 in New York).
            let family = try #require(props["family"])
            #expect(family["next"]?["title"] == "Swimming")
            #expect(family["next"]?["start"] == "17:00")
            #expect(family["next"]?["day"] == "today")
            #expect(family["next"]?["in"] == "10 h")
            #expect(family["next"]?["minutes"] == 600)
            #expect(family["today_count"] == 2)
            let titles = { (list: String) in family[list]?.array?.map { $0["title"] } }
            #expect(titles("today") == ["Swimming", "Call the cousins"])
            #expect(titles("events") == ["Swimming", "Call the cousins", "Dentist", "Book club", "Payday", "Rent"])
            let events = try #require(family["events"]?.array)
            #expect(events[1]["start"] == "18:00")
            #expect(events[2]["day"] == "tomorrow")
            #expect(events[2]["start"] == "09:30")
            #expect(events[2]["in"] == "1 day")
            #expect(events[2]["location"] == "Main Street 4, 2nd floor")
            #expect(events[4]["start"] == "all day")
            #expect(events[4]["day"] == "Monday")
            #expect(events[4]["date"] == "2026-11-30")
            #expect(events[4]["in"] == "4 days")
            #expect(family["countdown"] == ["title": "Summer holiday", "days": 226, "date": "2027-07-10"])
        }
    }

    @Test func aWebhookTakesItsFieldsKeepsThemAndRefusesOthers() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let door = SourceSettings(name: "door", kind: .webhook, options: .init(fields: ["state", "who"]))
        let hub = bench.hub([door])
        #expect(Self.health(hub, bench, "door")?.state == .missing)
        let health = try hub.push("door", body: ["state": "open", "who": "Sam"])
        #expect(health.state == .ok)
        #expect(Self.value(hub, bench, "door", "state") == "open")
        _ = try hub.push("door", body: ["who": nil])
        #expect(Self.value(hub, bench, "door", "who") == "--")
        #expect(Self.value(hub, bench, "door", "state") == "open")
        #expect(throws: SourcePushError.self) { try hub.push("door", body: ["colour": "red"]) }
        #expect(throws: SourcePushError.self) { try hub.push("door", body: ["state": ["nested": true]]) }
        #expect(throws: SourcePushError.self) { try hub.push("weather", body: ["state": "on"]) }
        do {
            _ = try hub.push("door", body: ["colour": "red", "state": [1]])
        } catch SourcePushError.invalid(let problems) {
            #expect(problems.map(\.field) == ["colour", "state"])
            #expect(problems[0].problem == "is not one of this source's fields (state, who)")
        }
        // Pushed values are on disk before the push returns: a new hub has them.
        #expect(Self.value(bench.hub([door]), bench, "door", "state") == "open")
    }

    /// A board whose only source is a webhook has nothing to fetch: its hub returned at once,
    /// and flapd's service group took that as a failure and stopped flapd, again after every
    /// restart. It runs until it is cancelled, taking pushes.
    @Test func aHubWithOnlyWebhooksRunsUntilCancelled() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let hub = bench.hub([SourceSettings(name: "door", kind: .webhook, options: .init(fields: ["state"]))])
        let first = await withTaskGroup(of: String.self) { group in
            group.addTask {
                await hub.run(); return "the hub returned"
            }
            group.addTask {
                _ = try? hub.push("door", body: ["state": "open"])
                for _ in 0..<200 { await Task.yield() }
                return "pushed"
            }
            let first = await group.next()
            group.cancelAll()
            // Cancelled, it returns.
            #expect(await group.next() == "the hub returned")
            return first
        }
        #expect(first == "pushed")
        #expect(Self.value(hub, bench, "door", "state") == "open")
    }

    /// A server that compresses what flapd asked for as it is (a gzip bomb is a few KB that
    /// unpack to gigabytes) is not unpacked: the fetch fails saying why, and nothing is read.
    @Test func aCompressedAnswerIsRefusedUnread() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let path = "/v1/forecast?latitude=52.52&longitude=13.41"
        try await bench.server.route(path, body: Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0]), contentType: "application/json", contentEncoding: "gzip")
        let hub = bench.hub([Self.weather(bench)])
        try await Self.running(hub) { () async throws in
            #expect(try await eventually { Self.health(hub, bench, "weather")?.error != nil })
            #expect(Self.health(hub, bench, "weather")?.error?.hasPrefix("the server sent it compressed (Content-Encoding: gzip)") == true)
            #expect(try await bench.server.requests(path).first?.header("Accept-Encoding") == "identity")
        }
    }

    /// 3 390 pushes in 20 s were each written to disk: a source takes 10 at once, then one a
    /// second, and says how long to wait.
    @Test func aWebhookFloodIsHeldToItsRate() async throws {
        let bench = try await Bench()
        teardown { await bench.stop() }
        let hub = bench.hub([SourceSettings(name: "door", kind: .webhook, options: .init(fields: ["state"]))])
        for index in 0..<WebhookRate.burst { _ = try hub.push("door", body: ["state": .number(Double(index))]) }
        do {
            _ = try hub.push("door", body: ["state": "flood"])
            Issue.record("the 11th push at once was taken")
        } catch SourcePushError.tooFast(let wait) {
            #expect(wait == 1)
        }
        #expect(Self.value(hub, bench, "door", "state") == 9)
        await bench.clock.advance(by: .seconds(1))
        _ = try hub.push("door", body: ["state": "a second later"])
        #expect(Self.value(hub, bench, "door", "state") == "a second later")
    }

    @Test func backoffDoublesFromThirtySecondsToAnHourOrTheInterval() {
        let backoff = { (failures: Int, every: Int) in SourceHub<ManualClock>.backoff(failures: failures, every: .seconds(every), retryAfter: nil) }
        #expect((1...9).map { backoff($0, 600) } == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600].map { Duration.seconds($0) })
        #expect(backoff(20, 7200) == .seconds(7200))
        #expect(SourceHub<ManualClock>.backoff(failures: 1, every: .seconds(600), retryAfter: 90) == .seconds(90))
        #expect(SourceHub<ManualClock>.backoff(failures: 1, every: .seconds(600), retryAfter: 100_000) == .seconds(6 * 3600))
    }
}
