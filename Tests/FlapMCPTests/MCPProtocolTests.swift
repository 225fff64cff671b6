import FlapEndpoints
import FlapJSON
import FlapMCP
import Testing

/// The protocol's answers that need no board: the handshake, the tool list, JSON-RPC's errors,
/// and a call's arguments refused before anything is sent. (Calls that reach the board are
/// `AssistantClientTests`, through a real flapd.)
@Suite struct MCPProtocolTests {
    /// Answers every request it is asked with the same refusal; here it must never be asked.
    struct Unreachable: FlapdAPI {
        func send(_ request: EndpointRequest, body: JSONValue?, headers: [(String, String)]) async throws -> APIAnswer {
            Issue.record("the API was asked \(request)")
            return APIAnswer(status: 500, body: [])
        }
    }

    let server = MCPServer(version: "9.9")

    func ask(_ line: String) async throws -> JSONValue {
        let answer = try #require(await server.answer(line: line, api: Unreachable()))
        return try JSONValue(parsing: Array(answer.utf8))
    }

    @Test func theHandshakeAgreesOnARevisionBothSpeak() async throws {
        let asked = try await ask(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{}}}"#)
        #expect(asked["result"]?["protocolVersion"] == "2025-03-26")
        #expect(asked["result"]?["serverInfo"]?["version"] == "9.9")
        #expect(asked["result"]?["capabilities"]?["tools"] != nil && asked["result"]?["capabilities"]?["resources"] != nil)
        let newer = try await ask(#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2031-01-01"}}"#)
        #expect(newer["result"]?["protocolVersion"] == "2025-11-25")
        #expect(newer["id"] == "a")
    }

    @Test func everyToolHasAnObjectSchemaAndItsRequiredArgumentsAreItsOwn() async throws {
        let tools = try #require(try await ask(#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)["result"]?["tools"]?.array)
        #expect(tools.count == MCPServer.toolNames.count && tools.count == 24)
        for tool in tools {
            let schema = try #require(tool["inputSchema"]?.object)
            #expect(schema["type"] == "object" && schema["additionalProperties"] == false)
            let properties = schema["properties"]?.object ?? [:]
            for required in schema["required"]?.array ?? [] { #expect(properties[required.string ?? ""] != nil) }
            #expect(tool["annotations"]?["readOnlyHint"]?.bool != nil, "\(tool["name"]?.string ?? "")")
        }
        let readOnly = tools.filter { $0["annotations"]?["readOnlyHint"] == true }.compactMap { $0["name"]?.string }
        #expect(
            readOnly.sorted() == [
                "get_sound", "list_module_commands", "list_quick_messages", "list_scheduled", "list_schedules", "list_slots", "list_sources",
                "preview_layout", "read_board", "read_receipts", "room", "status"
            ])
    }

    @Test func argumentsThatDoNotFitTheSchemaAreRefusedByName() async throws {
        func call(_ arguments: String) async throws -> JSONValue {
            try #require(
                try await ask(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"set_sound","arguments":\#(arguments)}}"#)["result"])
        }
        let wrong = try await call(#"{"volume": 140, "mute": "yes", "loud": true}"#)
        #expect(wrong["isError"] == true)
        #expect(
            wrong["content"]?.array?.first?["text"] == """
                loud: set_sound takes no such argument (it takes mute, volume, quietHours)
                mute: must be true or false
                volume: must be from 0 to 100, not 140
                """)
        #expect(try await call("[1]")["content"]?.array?.first?["text"] == "arguments: must be an object")
    }

    @Test func jsonRPCsOwnErrorsCarryTheirCodes() async throws {
        #expect(try await ask(#"{"jsonrpc":"2.0","id":4,"method":"sampling/createMessage"}"#)["error"]?["code"] == -32601)
        #expect(try await ask(#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"fly"}}"#)["error"]?["code"] == -32602)
        #expect(try await ask(#"{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{}}"#)["error"]?["code"] == -32602)
        #expect(try await ask(#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#)["error"]?["code"] == -32600)
        #expect(try await ask(#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#)["error"]?["code"] == -32600)
        let broken = try await ask("{not json")
        #expect(broken["error"]?["code"] == -32700 && broken["id"] == .null)
        #expect(try await ask(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)["result"] == [:])
        // Subscriptions need a transport that can tell of changes: not this server's (stdio's).
        #expect(
            try await ask(#"{"jsonrpc":"2.0","id":9,"method":"resources/subscribe","params":{"uri":"flapd://board.txt"}}"#)["error"]?["code"]
                == -32601)
    }

    @Test func notificationsAndBlankLinesAreNotAnswered() async {
        #expect(await server.answer(line: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, api: Unreachable()) == nil)
        #expect(await server.answer(line: #"{"jsonrpc":"2.0","id":9,"result":{}}"#, api: Unreachable()) == nil)
        #expect(await server.answer(line: "  ", api: Unreachable()) == nil)
    }
}
