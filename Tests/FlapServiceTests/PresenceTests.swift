import Foundation
import TestSupport
import Testing

/// Presence through the real flapd: members' live streams (curl) make them here, their pages'
/// leaving makes them gone, a person's own setting hides them from the others, from MQTT's
/// retained topics and across a restart; nobody changes another's.
@Suite(.cleansUp, .timeLimit(.minutes(4))) struct PresenceTests {
    struct Person {
        let id: String
        let api: HTTPClient
        let key: String
    }

    func member(_ name: String, of flapd: InProcessFlapd) async throws -> Person {
        let added = try await flapd.api.post("/v1/members", json: ["name": name])
        let id = try #require((added.object["member"] as? [String: Any])?["id"] as? String, "\(added.text)")
        let key = try #require(try await flapd.api.post("/v1/members/\(id)/keys", json: [:]).object["key"] as? String)
        return Person(id: id, api: HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(key)"]), key: key)
    }

    func watch(_ flapd: InProcessFlapd, key: String) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/curl", ["-sN", "--max-time", "200", "-H", "Authorization: Bearer \(key)", "http://127.0.0.1:\(flapd.apiPort)/v1/events"])
    }

    /// `name` as `asker` sees them; nil when not listed.
    func seen(_ name: String, by asker: HTTPClient) async throws -> [String: Any]? {
        let people = try await asker.get("/v1/presence").object["people"] as? [[String: Any]] ?? []
        return people.first { $0["name"] as? String == name }
    }

    func patch(_ person: HTTPClient, _ body: String) async throws -> HTTPClient.Reply {
        try await person.request("PATCH", "/v1/presence", body: Data(body.utf8), headers: ["Content-Type": "application/json"])
    }

    @Test func membersSeeEachOtherComeWriteAndGo() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "hall"])
        teardown { await flapd.stop() }
        let topics = try ChildProcess(
            "/usr/bin/stdbuf", ["-oL", "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "vestawidget/hall/presence/#", "-v"]
        )
        teardown { await topics.stop() }
        let (mum, james) = (try await member("Mum", of: flapd), try await member("James", of: flapd))
        #expect(try await seen("Mum", by: james.api)?["here"] as? Bool == false)
        #expect(try await seen("Mum", by: james.api)?["lastSeen"] is NSNull, "never seen")

        // Mum's page opens: James sees her here; her stream told her its number and everyone.
        let page = try watch(flapd, key: mum.key)
        teardown { await page.stop() }
        #expect(try await eventually { page.stdout.contains("event: presence") })
        #expect(page.stdout.contains("event: stream\ndata: {\"stream\":"))
        #expect(try await eventually { try await seen("Mum", by: james.api)?["here"] as? Bool == true })

        // James's stream hears her write, and never the text.
        let jamesPage = try watch(flapd, key: james.key)
        teardown { await jamesPage.stop() }
        #expect(try await eventually { jamesPage.stdout.contains("event: presence") })
        #expect(try await patch(mum.api, #"{"writing": true}"#).status == 200)
        #expect(try await eventually { jamesPage.stdout.contains(#""name":"Mum","sender":"mum","writing":true"#) })
        #expect(try await patch(mum.api, #"{"writing": false}"#).status == 200)

        // Retained on MQTT: the household, and each person for Home Assistant.
        let retained = try await ProcessRunner.run(
            "/usr/bin/mosquitto_sub", ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "vestawidget/hall/presence", "-C", "1", "-W", "30"])
        let everyone = try JSONSerialization.jsonObject(with: Data(retained.stdoutText.utf8)) as? [String: Any]
        #expect((everyone?["people"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Owner", "Mum", "James"], "\(retained.stdoutText)")

        // Her page leaves: gone at once, last seen now.
        let stream = try #require(
            page.stdout.split(separator: "\n").first { $0.hasPrefix("data: {\"stream\":") }.flatMap { Int($0.filter(\.isNumber)) })
        #expect(try await patch(mum.api, #"{"here": false, "stream": \#(stream)}"#).status == 200)
        let gone = try #require(try await seen("Mum", by: james.api))
        #expect(gone["here"] as? Bool == false && gone["lastSeen"] is String, "\(gone)")

        // James hides: Mum sees nothing of him, MQTT neither, across a restart; he still sees himself.
        #expect(try await patch(james.api, #"{"showMe": false}"#).object["showMe"] as? Bool == false)
        #expect(try await seen("James", by: mum.api) == nil)
        #expect(try await seen("James", by: james.api)?["you"] as? Bool == true)
        // An emptied retained message reaches a subscriber as nothing (mosquitto_sub says "(null)").
        #expect(try await eventually { topics.stdout.split(separator: "\n").contains { $0 == "vestawidget/hall/presence/\(james.id) (null)" } })
        let lastOfEveryone = topics.stdout.split(separator: "\n").last { $0.hasPrefix("vestawidget/hall/presence {") }
        #expect(lastOfEveryone?.contains("James") == false, "\(lastOfEveryone ?? "")")
        await page.stop()
        await jamesPage.stop()
        await flapd.stop()
        let again = try await InProcessFlapd.start(stateDirectory: flapd.stateDirectory, arguments: ["--no-sound"])
        teardown { await again.stop() }
        let mumAgain = HTTPClient(base: "http://127.0.0.1:\(again.apiPort)", headers: ["Authorization": "Bearer \(mum.key)"])
        #expect(try await seen("James", by: mumAgain) == nil, "still hidden after a restart")
        #expect(try await seen("Mum", by: again.api)?["lastSeen"] as? String == gone["lastSeen"] as? String, "her sighting kept")
    }

    @Test func aPageThatClosesWithoutSayingSoIsGoneWhenItCloses() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let mum = try await member("Mum", of: flapd)
        let owners = try watch(flapd, key: flapd.apiKey)
        teardown { await owners.stop() }
        let page = try watch(flapd, key: mum.key)
        teardown { await page.stop() }
        let here = try NSRegularExpression(pattern: #"\{"here":true,"lastSeen":[^,]*,"name":"Mum""#)
        let gone = try NSRegularExpression(pattern: #"\{"here":false,"lastSeen":[^,]*,"name":"Mum""#)
        func found(_ pattern: NSRegularExpression, after start: Int) -> Range<String.Index>? {
            let text = owners.stdout
            let from = text.utf16.index(text.startIndex, offsetBy: min(start, text.utf16.count))
            return pattern.firstMatch(in: text, range: NSRange(from..<text.endIndex, in: text)).flatMap { Range($0.range, in: text) }
        }
        #expect(try await eventually { found(here, after: 0) != nil })
        // The client closes its connection (a browser killed, a script ending) without the
        // page's leave. flapd notices the close itself: the owner's stream hears she is gone
        // before the keep-alives (every 10 s) could have found the connection dead, which takes
        // two of them (the first write after the close is answered with a reset, the next fails).
        let before = owners.stdout.utf16.count
        await page.stop()
        #expect(try await eventually { found(gone, after: before) != nil })
        let text = owners.stdout
        let start = text.utf16.index(text.startIndex, offsetBy: before)
        let between = text[start..<(found(gone, after: before)?.lowerBound ?? text.endIndex)]
        #expect(between.components(separatedBy: ": keepalive").count - 1 < 2, "\(between)")
    }

    @Test func nobodyChangesAnothersPresenceAndAViewerSeesNothing() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let (mum, james) = (try await member("Mum", of: flapd), try await member("James", of: flapd))
        let refused = try await patch(james.api, #"{"showMe": false, "member": "\#(mum.id)"}"#)
        #expect(refused.status == 400 && refused.error.contains("member is not a field of presence"), "\(refused.text)")
        #expect(try await patch(james.api, #"{"name": "King"}"#).status == 400)
        #expect(try await seen("Mum", by: flapd.api) != nil)
        #expect(try await seen("James", by: flapd.api) != nil)
        #expect(try await patch(james.api, #"{"here": "yes"}"#).error.contains("here is true or false"))
        let viewerKey = try String(contentsOfFile: flapd.stateDirectory + "/viewer-key", encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let viewer = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(viewerKey)"])
        #expect(try await viewer.get("/v1/presence").status == 403)
        // The viewer's stream is nobody's: it tells no presence.
        let watcher = try watch(flapd, key: viewerKey)
        teardown { await watcher.stop() }
        #expect(try await eventually { watcher.stdout.contains("event: board") })
        #expect(!watcher.stdout.contains("presence") && !watcher.stdout.contains("stream"))
    }
}
