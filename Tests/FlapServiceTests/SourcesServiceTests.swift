import Foundation
import TestSupport
import Testing

/// Content sources through the running flapd: a JSON source, a feed and a webhook from
/// flapd.toml, fetched from a web server on 127.0.0.1; their values in a quick message's text
/// and in VBML, the webhook pushed to with its own key, their health in /v1/status and metrics.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SourcesServiceTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("FlapSourcesTests/Fixtures/\(name)"))
    }

    /// docs/sources.md's doorbell on its own: flapd exited 1 right after it was ready ("A service
    /// has finished unexpectedly … SourcesService"), and systemd restarted it into the same exit.
    @Test func aBoardWhoseOnlySourceIsAWebhookKeepsRunning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("webhook-only-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("flapd.toml")
        try """
        [[source]]
        name = "doorbell"
        kind = "webhook"
        fields = ["rang"]

        [[trigger]]
        name = "ring"
        source = "doorbell"
        text = "SOMEONE AT THE DOOR"
        duration = "2m"
        """.write(to: config, atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--config", config.path, "--no-sound"])
        teardown { await flapd.stop() }
        let pushed = try await flapd.api.post("/v1/sources/doorbell", json: ["rang": true])
        #expect(pushed.status == 200, "\(pushed.text)")
        #expect(try await eventually { try await Self.boardText(flapd.api).contains("SOMEONE AT THE DOOR") })
        #expect(try await flapd.api.get("/healthz").status == 200)
        #expect(flapd.isRunning, "flapd stopped: \(flapd.said.suffix(2000))")
        #expect(!flapd.said.contains("finished unexpectedly"), "\(flapd.said.suffix(2000))")
    }

    @Test func sourcesFillBoardsAndTakePushes() async throws {
        let server = try await ContentServer.start()
        teardown { await server.stop() }
        try await server.route("/v1/forecast", body: try Self.fixture("open-meteo.json"), contentType: "application/json", etag: "\"a\"")
        try await server.route("/news.rss", body: try Self.fixture("news.rss"), contentType: "application/rss+xml")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sources-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(at: folder) }
        try "door-key-0123456789\n".write(to: folder.appendingPathComponent("door.key"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("flapd.toml")
        try """
        [[source]]
        name = "weather"
        kind = "json"
        url = "\(server.base)/v1/forecast"
        every = "10m"
        values = { temperature = "/current/temperature_2m", high = "/daily/temperature_2m_max/0" }

        [[source]]
        name = "news"
        kind = "feed"
        url = "\(server.base)/news.rss"

        [[source]]
        name = "door"
        kind = "webhook"
        fields = ["state"]
        key_file = "\(folder.path)/door.key"

        [[trigger]]
        name = "visitor"
        source = "door"
        value = "state"
        equals = "open"
        text = "SOMEONE AT THE DOOR"
        duration = "5m"
        cooldown = 0
        """.write(to: config, atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--config", config.path, "--no-sound"])
        teardown { await flapd.stop() }
        let api = flapd.api

        #expect(
            try await eventually {
                let sources = try await api.get("/v1/sources").object["sources"] as? [[String: Any]] ?? []
                return sources.filter { $0["state"] as? String == "ok" }.count == 2
            })
        let weather = try await api.get("/v1/sources/weather").object
        #expect((weather["values"] as? [String: Any])?["temperature"] as? Double == 3.4)
        #expect(weather["every"] as? String == "10m" && weather["from"] as? String == "127.0.0.1:\(server.port)")
        #expect(try await api.get("/v1/sources/door").object["state"] as? String == "missing")
        #expect(try await api.get("/v1/sources/nothing").status == 404)

        // A quick message's text names the sources' values.
        let saved = try await api.request(
            "PUT", "/v1/templates/outside", body: Data(#"{"text": "{{weather.temperature}} C, HIGH {{weather.high}}\n{{door.state}}"}"#.utf8),
            headers: ["Content-Type": "application/json"])
        #expect(saved.status == 200 || saved.status == 201, "\(saved.text)")
        #expect(try await api.post("/v1/templates/outside/send", json: [:]).status == 202)
        #expect(try await eventually { try await Self.boardText(api).contains("3.4 C, HIGH 5.1") })
        #expect(try await Self.boardText(api).contains("--"))
        // A name no source gives is refused when saved, naming what there is.
        let typo = try await api.request(
            "PUT", "/v1/templates/typo", body: Data(#"{"text": "{{weather.temprature}}"}"#.utf8), headers: ["Content-Type": "application/json"])
        #expect(typo.status == 200 || typo.status == 201)
        let sentTypo = try await api.post("/v1/templates/typo/send", json: [:])
        #expect(sentTypo.status == 400 && sentTypo.error.contains("weather has high, stale, temperature, updated"), "\(sentTypo.error)")

        // The webhook, with its own key: that key does nothing else.
        let door = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer door-key-0123456789"])
        let pushed = try await door.post("/v1/sources/door", json: ["state": "OPEN"])
        #expect(pushed.status == 200 && (pushed.object["values"] as? [String: Any])?["state"] as? String == "OPEN", "\(pushed.text)")
        #expect(try await door.post("/v1/messages", json: ["text": "HI"]).status == 401)
        #expect(try await door.post("/v1/sources/weather", json: ["state": "x"]).status == 401)
        // A compressed push is refused saying so (a few KB could unpack to gigabytes).
        let gzipped = try await door.request(
            "POST", "/v1/sources/door", body: Data([0x1F, 0x8B, 0x08, 0x00]),
            headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"])
        #expect(gzipped.status == 415 && gzipped.error.contains("without Content-Encoding (not gzip)"), "\(gzipped.text)")
        let wrong = try await door.post("/v1/sources/door", json: ["colour": "red"])
        #expect(wrong.status == 400 && wrong.error.contains("colour: is not one of this source's fields (state)"))
        // A member's key pushes too, and reads the sources; fetching is the owner's.
        let invited = try await api.postJSON("/v1/members", #"{"name": "Sam"}"#)
        let memberID = try #require((invited.object["member"] as? [String: Any])?["id"] as? String)
        let memberKey = try #require(try await api.post("/v1/members/\(memberID)/keys", json: [:]).object["key"] as? String)
        let sam = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(memberKey)"])
        #expect(try await sam.post("/v1/sources/door", json: ["state": "OPEN"]).status == 200)
        #expect(try await sam.get("/v1/sources").status == 200)
        #expect(try await sam.post("/v1/sources/weather/refresh", json: [:]).status == 403)
        #expect(try await api.post("/v1/sources/weather", json: ["temperature": 20]).status == 409)
        #expect(try await api.post("/v1/sources/door/refresh", json: [:]).status == 409)
        #expect(try await api.post("/v1/sources/weather/refresh", json: [:]).status == 202)

        // The push fired the trigger, whose board waits under the person's quick message.
        let triggers = try await api.get("/v1/sources").object["triggers"] as? [[String: Any]] ?? []
        #expect(
            triggers.first?["name"] as? String == "visitor" && triggers.first?["when"] as? String == "state is open"
                && triggers.first?["lastFired"] is String)
        let slots = try await api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.contains { $0["source"] as? String == "trigger" && $0["duration"] as? Int == 300 })
        #expect(try await Self.boardText(api).contains("3.4 C"))
        for slot in slots where slot["source"] as? String != "trigger" {
            #expect(try await api.request("DELETE", "/v1/slots/\(slot["sender"] as! String)").status == 204)
        }
        #expect(try await eventually { try await Self.boardText(api).contains("SOMEONE AT THE DOOR") })

        // VBML's props are the sources' values too; a person's message covers the trigger's.
        let vbml = try await api.post("/v1/messages", json: ["vbml": ["components": [["template": "DOOR {{door.state}}\n{{news.headline}}"]]]])
        #expect(vbml.status == 202, "\(vbml.text)")
        #expect(try await eventually { try await Self.boardText(api).contains("LIBRARY OPENS LATE") })
        let shown = try await Self.boardText(api)
        #expect(shown.hasPrefix("DOOR OPEN\nLIBRARY OPENS LATE ON"), "\(shown)")

        // An assistant through flapctl's MCP server: the sources' values, a push.
        let lines = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"push_to_source","arguments":{"name":"door","values":{"state":"shut"}}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_sources","arguments":{}}}"#
        ]
        let mcp = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapctl"), ["mcp", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey],
            input: Data((lines.joined(separator: "\n") + "\n").utf8))
        let answers = mcp.stdoutText.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func text(_ id: Int) -> String {
            let result = answers.first { $0["id"] as? Int == id }?["result"] as? [String: Any]
            return ((result?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        }
        #expect(text(2).hasPrefix("door is now state = shut\n"), "\(mcp.stdoutText.suffix(1000))")
        #expect(text(3).contains("weather (json, ok): weather.high = 5.1, weather.temperature = 3.4"), "\(text(3))")
        #expect(
            text(3).contains("news (feed, ok): news.count = 3, news.headline = Library opens late on Thursdays & Fridays, news.headlines = 3 items"),
            "\(text(3))")

        // flapctl.
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let push = try await ProcessRunner.run(flapctl, ["sources", "push", "door", "state=ajar"] + connection)
        #expect(push.status == 0 && push.stdoutText == "door: state=ajar\n", "\(push.stdoutText)\(push.stderrText)")
        let refused = try await ProcessRunner.run(flapctl, ["sources", "push", "door", "colour=red"] + connection)
        #expect(refused.status != 0 && refused.stderrText.contains("colour: is not one of this source's fields (state)"), "\(refused.stderrText)")
        let listed = try await ProcessRunner.run(flapctl, ["sources"] + connection).stdoutText
        #expect(
            listed.contains("weather  json  ok, updated") && listed.contains("  {{weather.temperature}} 3.4")
                && listed.contains("  {{news.headlines}} (3 items)")
                && listed.contains("trigger visitor: when door state is open, last fired"), "\(listed)")
        #expect(try await ProcessRunner.run(flapctl, ["sources", "refresh", "weather"] + connection).stdoutText.hasPrefix("fetching weather"))
        #expect(try await ProcessRunner.run(flapctl, ["sources", "push", "door", "state=shut"] + connection).status == 0)

        let status = try await api.get("/v1/status").object["sources"] as? [[String: Any]] ?? []
        #expect(status.compactMap { $0["name"] as? String } == ["weather", "news", "door"])
        let metrics = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").get("/metrics").text
        #expect(
            metrics.contains(#"flapd_source_looks_total{source="weather",outcome="changed"} 1"#)
                || metrics.contains(#"flapd_source_looks_total{outcome="changed",source="weather"}"#),
            "\(metrics.split(separator: "\n").filter { $0.contains("source") })")
        #expect(metrics.contains("flapd_source_updated_timestamp_seconds"))
        // Kept: pushed values are there after a restart.
        await flapd.stop()
        let again = try await InProcessFlapd.start(stateDirectory: flapd.stateDirectory, arguments: ["--config", config.path, "--no-sound"])
        teardown { await again.stop() }
        #expect((try await again.api.get("/v1/sources/door").object["values"] as? [String: Any])?["state"] as? String == "shut")
    }

    static func boardText(_ api: HTTPClient) async throws -> String {
        let panels = try await api.get("/v1/board").object["panels"] as? [[String: Any]] ?? []
        return (panels.first?["text"] as? [String])?.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: "\n") ?? ""
    }
}
