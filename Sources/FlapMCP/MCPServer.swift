import FlapJSON

/// flapd as an MCP server: the protocol's methods (initialize, ping, tools, resources) answered
/// over any transport, every tool done through the native API (``FlapdAPI``).
///
/// Written here rather than on modelcontextprotocol/swift-sdk: that library imports all of
/// Foundation and, for its HTTP client, FoundationNetworking and libcurl; a program that only
/// starts its `Server` on its HTTP transport links to 61 MB and 36 shared libraries, against
/// 13.5 MB and 6 for the same program on FoundationEssentials, which would undo the small
/// package. The protocol itself is JSON-RPC 2.0 with a handful of methods.
public struct MCPServer: Sendable {
    /// The protocol revisions spoken, newest first.
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// flapd's version, as the server's `serverInfo` gives it.
    public let version: String
    /// Whether a client may subscribe to the board's resources: where the transport can tell it
    /// they changed (Streamable HTTP's event stream), not on stdio.
    public let subscriptions: Bool

    /// A server for flapd `version`; `subscriptions` when it can tell a client of changed resources.
    public init(version: String, subscriptions: Bool = false) {
        self.version = version
        self.subscriptions = subscriptions
    }

    static let tools: [BoardTool] = [
        MessageTools.send, MessageTools.preview, BoardReadingTools.readBoard, BoardReadingTools.listSlots, BoardReadingTools.clearSlot,
        MessageTools.receipts, QuickMessageTools.list, QuickMessageTools.save, QuickMessageTools.send, QuickMessageTools.delete,
        ScheduleTools.list, ScheduleTools.add, ScheduleTools.remove, MessageTools.listScheduled, MessageTools.cancelScheduled,
        BoardReadingTools.status, SoundTools.read, SoundTools.change, BoardReadingTools.room,
        SourceTools.list, SourceTools.refresh, SourceTools.push, ModuleTools.list, ModuleTools.send
    ]

    /// Every tool's name and title, for documentation and tests.
    public static var toolNames: [(name: String, title: String)] { tools.map { ($0.name, $0.title) } }

    /// The revision to speak with a client that asked for `requested`: it, when spoken here, else the newest.
    public static func negotiate(_ requested: String?) -> String {
        requested.flatMap { protocolVersions.contains($0) ? $0 : nil } ?? protocolVersions[0]
    }

    /// The answer to one message; nil for notifications and responses, which are not answered.
    public func answer(_ message: RPCMessage, api: any FlapdAPI, session: (any MCPSubscriptionBook)? = nil) async -> JSONValue? {
        switch message {
        case .notification, .response:
            return nil
        case .invalid(let id, let reason):
            return RPCReply.error(id, .invalidRequest, reason)
        case .request(let id, let method, let params):
            do {
                return RPCReply.result(id, try await result(method, params, api: api, session: session))
            } catch let error as MethodError {
                return RPCReply.error(id, error.code, error.message)
            } catch {
                return RPCReply.error(id, .internalError, "\(error)")
            }
        }
    }

    private func result(
        _ method: String, _ params: [String: JSONValue], api: any FlapdAPI,
        session: (any MCPSubscriptionBook)?
    ) async throws -> JSONValue {
        switch method {
        case "initialize":
            return [
                "protocolVersion": .string(Self.negotiate(params["protocolVersion"]?.string)),
                "capabilities": ["tools": ["listChanged": false], "resources": ["subscribe": .bool(subscriptions), "listChanged": false]],
                "serverInfo": ["name": "flapd", "title": "VestaWidget", "version": .string(version)],
                "instructions": .string(Self.instructions)
            ]
        case "ping":
            return [:]
        case "tools/list":
            return ["tools": .array(Self.tools.map(\.listing))]
        case "tools/call":
            return try await call(params, api: api).json
        case "resources/list":
            return try await readingBoard { try await BoardResources.list(api: api) }
        case "resources/templates/list":
            return ["resourceTemplates": []]
        case "resources/read":
            guard let uri = params["uri"]?.string else { throw MethodError(.invalidParams, "uri: the resource to read is missing") }
            guard let contents = try await readingBoard({ try await BoardResources.read(uri, api: api) }) else {
                throw MethodError(.resourceNotFound, "no resource \(uri); there are \(BoardResources.text) and \(BoardResources.picture)")
            }
            return contents
        case "resources/subscribe", "resources/unsubscribe":
            guard subscriptions, let session else {
                throw MethodError(.methodNotFound, "subscriptions are offered over Streamable HTTP (/mcp), not here")
            }
            guard let uri = params["uri"]?.string else { throw MethodError(.invalidParams, "uri: the resource is missing") }
            if method == "resources/unsubscribe" {
                await session.unsubscribe(uri)
                return [:]
            }
            guard try await readingBoard({ try await BoardResources.exists(uri, api: api) }) else {
                throw MethodError(
                    .resourceNotFound,
                    "no resource \(uri.prefix(200)); there are \(BoardResources.text), \(BoardResources.picture) and each panel's picture")
            }
            await session.subscribe(uri)
            return [:]
        default:
            throw MethodError(.methodNotFound, "flapd has no method \(method)")
        }
    }

    private func call(_ params: [String: JSONValue], api: any FlapdAPI) async throws -> ToolResult {
        guard let name = params["name"]?.string else { throw MethodError(.invalidParams, "name: the tool to call is missing") }
        guard let tool = Self.tools.first(where: { $0.name == name }) else {
            throw MethodError(.invalidParams, "no tool called \(name); tools/list names them")
        }
        let given = params["arguments"] ?? [:]
        guard let fields = given.object else { return .refused("arguments: must be an object") }
        let arguments: ToolArguments
        do { arguments = try ToolArguments(fields, for: tool) } catch { return .refused(error.description) }
        do {
            return try await tool.run(arguments, api)
        } catch {
            // flapd not answering (flapctl mcp) is something to tell the assistant, not a protocol error.
            return .refused("\(error)")
        }
    }

    private func readingBoard<T>(_ read: () async throws -> T) async throws -> T {
        do { return try await read() } catch let error as MethodError { throw error } catch {
            throw MethodError(.internalError, "the board could not be read: \(error)")
        }
    }

    static let instructions = """
        This is a split-flap message board (VestaWidget). send_message puts text on it (upper-case letters, digits and \
        some punctuation; {63} to {70} are colour chips, red to black); preview_layout shows how a text would fit and which \
        character cannot be shown. read_board says what it shows now. Each sender has one slot and the board shows the \
        latest message; a message with notBefore waits until then (list_scheduled, cancel_scheduled).
        """
}

/// A request the protocol refuses, with JSON-RPC's code.
struct MethodError: Error {
    var code: RPCReply.Code
    var message: String
    init(_ code: RPCReply.Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension MCPServer {
    /// The answer to one line of newline-delimited JSON-RPC (the stdio transport), as one line.
    public func answer(line: String, api: any FlapdAPI) async -> String? {
        guard !line.allSatisfy(\.isWhitespace) else { return nil }
        guard let json = try? JSONValue(parsing: Array(line.utf8)) else {
            return RPCReply.error(.null, .parseError, "the line is not JSON").text
        }
        return await answer(RPCMessage(json), api: api)?.text
    }
}

/// A client's subscriptions to resources, kept by its session.
public protocol MCPSubscriptionBook: Sendable {
    func subscribe(_ uri: String) async
    func unsubscribe(_ uri: String) async
}
