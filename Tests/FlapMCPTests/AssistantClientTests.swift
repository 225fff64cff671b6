import FlapHardware
import FlapLinux
import Foundation
import TestSupport
import Testing

/// PyPI's `mcp` (the reference Python SDK) as the assistant's side, against a real flapd over
/// Streamable HTTP and against `flapctl mcp` over stdio: the same scenario through both.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct AssistantClientTests {
    static let tools = [
        "add_schedule", "cancel_scheduled", "clear_slot", "delete_quick_message", "get_sound", "list_module_commands", "list_quick_messages",
        "list_scheduled", "list_schedules", "list_slots", "list_sources", "preview_layout", "push_to_source", "read_board", "read_receipts",
        "refresh_source", "remove_schedule", "room", "save_quick_message", "send_message", "send_module_command", "send_quick_message", "set_sound",
        "status"
    ]

    /// What the client saw, as the script printed it.
    static func check(_ arguments: [String], environment: [String: String]? = nil) async throws -> [String: Any] {
        let script = PythonPeer.peersDirectory.appendingPathComponent("mcp_client_check.py").path
        let result = try await ProcessRunner.run(try await PythonPeer.python(), [script] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderrText.suffix(2000))")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.stdoutText.prefix(500))")
    }

    static func result(_ seen: [String: Any], _ key: String) -> (isError: Bool, text: String, structured: [String: Any]) {
        let call = seen[key] as? [String: Any] ?? [:]
        return (call["isError"] as? Bool ?? false, call["text"] as? String ?? "", call["structured"] as? [String: Any] ?? [:])
    }

    /// The board scenario's findings, the same whichever way the client came.
    static func expectTheBoardScenario(_ seen: [String: Any], subscriptions: Bool) {
        // Over HTTP the session's event stream tells a subscriber the board changed; stdio has none.
        #expect(seen["subscribeOffered"] as? Bool == subscriptions)
        if subscriptions { #expect(seen["madeUpSubscriptionRefused"] as? Bool == true, "\(seen["madeUpSubscriptionRefused"] ?? "")") }
        if subscriptions { #expect(seen["boardUpdatedNotice"] as? Bool == true, "notifications/resources/updated for flapd://board.txt") }
        #expect(seen["tools"] as? [String] == tools)
        let schemas = seen["schemas"] as? [String: [String: Any]] ?? [:]
        #expect(schemas.count == tools.count && schemas.values.allSatisfy { $0["type"] as? String == "object" })
        #expect((schemas["preview_layout"]?["required"] as? [String]) == ["text"])

        let sent = result(seen, "sent")
        #expect(!sent.isError && sent.text.hasPrefix("message m-"), "\(sent.text)")
        #expect(seen["boardReached"] as? Bool == true, "the board showed HELLO FROM MCP and came to rest")
        #expect(result(seen, "board").text.contains("|    HELLO FROM MCP    |"))

        // The euro sign is the 8th character of line 1, and the board has none: a blank stands for it, said.
        let preview = result(seen, "preview")
        #expect(
            !preview.isError && (preview.structured["warnings"] as? [String]) == ["line 1, position 8: '€' is not on the board: shown as ' '"],
            "\(preview.text)")
        let fits = result(seen, "previewFits")
        #expect(!fits.isError && fits.text.contains("|SEE YOU SOON          |"), "\(fits.text)")

        #expect(seen["resources"] as? [String] == ["flapd://board.png", "flapd://board.txt"])
        #expect((seen["resourceText"] as? String)?.contains("|    HELLO FROM MCP    |") == true)
        let picture = seen["picture"] as? [String: Any] ?? [:]
        #expect(picture["mimeType"] as? String == "image/png" && picture["signature"] as? String == "89504e470d0a1a0a")
        #expect((picture["width"] as? Int ?? 0) > 22 * 20 && (picture["height"] as? Int ?? 0) > 6 * 28, "\(picture)")

        let scheduled = result(seen, "scheduled")
        let id = scheduled.structured["id"] as? String ?? "?"
        #expect(scheduled.structured["status"] as? String == "scheduled", "\(scheduled.text)")
        #expect((seen["waitingBefore"] as? [String])?.contains(id) == true)
        #expect(!result(seen, "cancel").isError)
        #expect((seen["waitingAfter"] as? [String])?.contains(id) == false)
        #expect(result(seen, "cancelledReceipt").structured["status"] as? String == "cancelled")

        let keyed = result(seen, "keyed"), keyedAgain = result(seen, "keyedAgain")
        #expect(
            !keyed.isError && keyed.structured["id"] as? String != nil && keyedAgain.structured["id"] as? String == keyed.structured["id"] as? String,
            "\(keyed.text) / \(keyedAgain.text)")
        #expect(result(seen, "between").structured["id"] as? String != keyed.structured["id"] as? String)
        let reused = result(seen, "keyReused")
        #expect(reused.isError && reused.text.contains("Idempotency-Key"), "\(reused.text)")

        let unknown = result(seen, "unknownArgument")
        #expect(unknown.isError && unknown.text.hasPrefix("colour: send_message takes no such argument"), "\(unknown.text)")
        let wrongType = result(seen, "wrongType")
        #expect(wrongType.isError && wrongType.text == "volume: must be a whole number", "\(wrongType.text)")
        // The API's own words, each field named.
        let badCodes = result(seen, "badCodes")
        #expect(
            badCodes.isError && badCodes.text.contains("codes: has 1 rows; the board has 6") && badCodes.text.contains("codes[0]: has 3 columns"),
            "\(badCodes.text)")
        // A VBML document, and one wider than the board, its field named.
        let vbml = result(seen, "vbml")
        #expect(!vbml.isError && vbml.text.hasPrefix("message "), "\(vbml.text)")
        let badVBML = result(seen, "badVBML")
        #expect(badVBML.isError && badVBML.text.contains("vbml.components[0].style.width: 30 is wider than the board (22)"), "\(badVBML.text)")
        // A temporary message: in the slots with its duration; twelve hours at most, said before flapd is asked.
        #expect(!result(seen, "alert").isError)
        #expect(
            (seen["alertSlots"] as? [[Any]])?.contains { $0.first as? String == "door" && $0.last as? Int == 60 } == true,
            "\(seen["alertSlots"] ?? "-")")
        let tooLong = result(seen, "alertTooLong")
        #expect(tooLong.isError && tooLong.text.contains("duration"), "\(tooLong.text)")
        #expect(result(seen, "missing").text == "sender: is missing")
        #expect((seen["server"] as? [String: Any])?["protocolVersion"] as? String == "2025-11-25")
    }

    @Test func anAssistantUsesTheBoardOverStreamableHTTP() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let seen = try await Self.check(["http", "http://127.0.0.1:\(flapd.apiPort)/mcp", flapd.apiKey, "board"])
        Self.expectTheBoardScenario(seen, subscriptions: true)
        #expect((seen["server"] as? [String: Any])?["name"] as? String == "flapd")
        #expect(await flapd.terminate() == 0)
    }

    @Test func anAssistantUsesTheBoardThroughFlapctlMCP() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let seen = try await Self.check(["stdio", ProcessRunner.builtProduct("flapctl"), "board"], environment: flapd.clientEnvironment)
        Self.expectTheBoardScenario(seen, subscriptions: false)
        #expect(await flapd.terminate() == 0)
    }

    @Test func theEndpointRefusesStrangersAndAnswersItsOwnNames() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-hosts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("flapd.toml").path
        try "[api]\nallowed_hosts = [\"flapd.example\"]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let flapd = try await FlapdProcess.start(arguments: ["--config", file])
        teardown { await flapd.stop() }
        let seen = try await Self.check(["refusals", "http://127.0.0.1:\(flapd.apiPort)/mcp", flapd.apiKey])
        func answer(_ key: String) -> [String: Any] { seen[key] as? [String: Any] ?? [:] }
        for key in ["noKey", "wrongKey"] {
            #expect(answer(key)["status"] as? Int == 401, "\(key): \(answer(key))")
            #expect(answer(key)["wwwAuthenticate"] as? String == "Bearer", "\(key): no OAuth dance")
        }
        #expect((answer("wrongKey")["body"] as? String)?.contains("the API key is wrong") == true)
        #expect(answer("foreignOrigin")["status"] as? Int == 403, "\(answer("foreignOrigin"))")
        #expect(answer("foreignHost")["status"] as? Int == 421, "\(answer("foreignHost"))")
        #expect((answer("foreignHost")["body"] as? String)?.contains("allowed_hosts") == true)
        // Two Host headers (the first allowed, the second not) are refused, not read as the first.
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(sys.argv[2].encode())
            print(s.recv(200).split(b"\\r\\n")[0].decode())
            """
        func firstLine(_ request: String) async throws -> String {
            try await ProcessRunner.run("/usr/bin/python3", ["-c", script, "\(flapd.apiPort)", request]).stdoutText
        }
        let twoHosts = try await firstLine("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nContent-Length: 0\r\n\r\n")
        #expect(twoHosts.hasPrefix("HTTP/1.1 400"), "\(twoHosts)")
        // A target in absolute form is for the host it names, whatever Host says (RFC 9112 §3.2.2).
        let bearer = "Authorization: Bearer \(flapd.apiKey)\r\n"
        let absolute = try await firstLine("POST http://evil.example/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\(bearer)Content-Length: 0\r\n\r\n")
        #expect(absolute.hasPrefix("HTTP/1.1 421"), "\(absolute)")
        let own = try await firstLine("GET http://127.0.0.1:\(flapd.apiPort)/healthz HTTP/1.1\r\nHost: evil.example\r\n\r\n")
        #expect(own.hasPrefix("HTTP/1.1 200"), "a target naming flapd itself is served: \(own)")
        let unreadable = try await firstLine("GET ftp://127.0.0.1/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(unreadable.hasPrefix("HTTP/1.1 400"), "\(unreadable)")
        #expect(answer("allowedHost")["status"] as? Int == 200, "[api] allowed_hosts: \(answer("allowedHost"))")
        #expect(answer("ownOrigin")["status"] as? Int == 200, "flapd's own page: \(answer("ownOrigin"))")
        #expect(answer("unknownSession")["status"] as? Int == 404)
        #expect(answer("eventStream")["status"] as? Int == 400, "an event stream needs its session")
        // A client that takes only event streams gets the answer as one event.
        #expect(answer("streamOnly")["contentType"] as? String == "text/event-stream")
        #expect((answer("streamOnly")["body"] as? String)?.hasPrefix("event: message\ndata: {") == true, "\(answer("streamOnly"))")
        #expect((seen["sdkWrongKey"] as? String)?.hasPrefix("refused") == true, "\(seen["sdkWrongKey"] ?? "")")
        #expect(await flapd.terminate() == 0)
    }

    /// A rate nothing else in flapd produces, nor the pseudo-terminal's number (the log names it).
    static func rate(avoiding path: String) -> Int { [187, 193, 211, 227].first { !path.contains(String($0)) }! }

    @Test func noToolEverGivesAHeartRate() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let (sensor, path) = try LinuxSerialPort.pseudoTerminal(settings: SerialSettings(baudRate: 9600))
        let rate = Self.rate(avoiding: path)
        let writing = Task {
            while !Task.isCancelled {
                try? await sensor.write(Array("HR:\(rate)\n".utf8))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { writing.cancel() }
        let flapd = try await FlapdProcess.start(arguments: [
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--room", "lobby", "--device-id", "k",
            "--sensor", "serial=\(path)"
        ])
        teardown { await flapd.stop() }
        // The strap is read and in the room before the assistant asks.
        let inRoom = try await eventually(every: .milliseconds(100)) {
            let members = (try await flapd.api.get("/v1/room").object["members"] as? [[String: Any]]) ?? []
            return members.contains { ($0["id"] as? String)?.hasPrefix("k.serial.") == true }
        }
        #expect(inRoom)
        let sensors = try await flapd.api.get("/v1/sensors").text
        #expect(sensors.contains("\"bpm\":\(rate)"), "the rate is being read: \(sensors.prefix(300))")

        for seen in [
            try await Self.check(["http", "http://127.0.0.1:\(flapd.apiPort)/mcp", flapd.apiKey, "reading"]),
            try await Self.check(["stdio", ProcessRunner.builtProduct("flapctl"), "reading"], environment: flapd.clientEnvironment)
        ] {
            let answers = seen["answers"] as? [String: [String: Any]] ?? [:]
            #expect(answers.count == 10)
            let room = answers["room"]?["text"] as? String ?? ""
            #expect(room.hasPrefix("room ") && room.contains("\"members\""), "the room tool names who is in it: \(room.prefix(300))")
            for (tool, answer) in answers {
                let text = "\(answer)"
                #expect(
                    text.range(of: "(^|[^0-9A-Za-z.])\(rate)([^0-9A-Za-z]|$)", options: .regularExpression) == nil, "\(tool): \(text.prefix(400))")
                #expect(!text.lowercased().contains("bpm") && !text.contains("heartRate"), "\(tool): \(text.prefix(400))")
            }
        }
        #expect(await flapd.terminate() == 0)
        await sensor.close()
    }
}
