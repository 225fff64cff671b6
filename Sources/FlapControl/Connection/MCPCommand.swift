import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapJSON
import FlapMCP
import FoundationEssentials
import NIOPosix

/// `flapctl mcp`: an MCP server on standard input and output, for assistants configured with a
/// command to start. Each tool is done through a running flapd's HTTP API, found as the other
/// commands find it; the messages are newline-delimited JSON-RPC, answered in order.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve MCP on stdin/stdout for an assistant, forwarding to flapd.",
        discussion: HelpExamples.discussion("mcp", "Runs until its input ends. Nothing but MCP messages is written to stdout; problems go to stderr.")
    )

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        let api = ConnectionAPI(connection: try connection.connection())
        let server = MCPServer(version: Release.version)
        // Standard input is read on NIO's thread pool: a blocking read must not hold one of the
        // few threads Swift's tasks share.
        while let line = try await NIOThreadPool.singleton.runIfActive({ readLine(strippingNewline: true) }) {
            if let reply = await server.answer(line: line, api: api) {
                StandardStream.writeOutput(reply + "\n")
            }
        }
    }
}

/// The native API of a running flapd, over HTTP.
struct ConnectionAPI: FlapdAPI {
    let connection: FlapdConnection

    func send(_ request: EndpointRequest, body: JSONValue?, headers: [(String, String)]) async throws -> APIAnswer {
        let reply = try await connection.request(request, json: body.map { Data($0.text.utf8) }, headers: headers)
        return APIAnswer(status: reply.status, body: [UInt8](reply.body))
    }
}
