import FlapEndpoints
import FlapJSON
import FlapMCP
import Synchronization
import Testing

/// The module tools carry no firmware: they ask the API for a panel's declared commands and send
/// one as the API takes it, each argument under its own name.
@Suite struct ModuleToolsTests {
    /// Answers as flapd would for a wall, and keeps what it was asked.
    final class Wall: FlapdAPI {
        let asked = Mutex<[(String, JSONValue?)]>([])

        func send(_ request: EndpointRequest, body: JSONValue?, headers: [(String, String)]) async throws -> APIAnswer {
            asked.withLock { $0.append((request.description, body)) }
            let answer: JSONValue =
                request.endpoint == .moduleCommands
                ? ["panel": "wall", "commands": [["name": "home", "synopsis": "home"], ["name": "nudge", "synopsis": "nudge STEPS"]]]
                : ["id": 3, "row": 1, "column": 2, "sent": "m03s12"]
            return APIAnswer(status: 200, body: Array(answer.text.utf8))
        }
    }

    func call(_ tool: String, _ arguments: String, on wall: Wall) async throws -> String {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#
        let answer = try #require(await MCPServer(version: "9.9").answer(line: line, api: wall))
        return try JSONValue(parsing: Array(answer.utf8))["result"]?["content"]?.array?.first?["text"]?.string ?? ""
    }

    @Test func theToolsListAndSendWhatTheDriverDeclares() async throws {
        let wall = Wall()
        #expect(try await call("list_module_commands", #"{"panel": "wall"}"#, on: wall).hasPrefix("home, nudge STEPS"))
        let sent = try await call(
            "send_module_command", #"{"panel": "wall", "row": 1, "column": 2, "command": "nudge", "arguments": {"steps": 12, "row": 9}}"#, on: wall)
        #expect(sent.hasPrefix("module 3 (row 1, column 2): sent m03s12"), "\(sent)")
        let asked = wall.asked.withLock { $0 }
        #expect(asked.map(\.0) == ["GET /v1/panels/wall/modules", "POST /v1/panels/wall/modules"])
        #expect(asked.last?.1 == ["row": 1, "column": 2, "command": "nudge", "steps": 12])
    }
}
