import FlapJSON

/// One JSON-RPC 2.0 message as MCP sends it: a request (answered), a notification (not
/// answered), or a client's response to something the server asked (flapd asks nothing).
public enum RPCMessage: Sendable, Equatable {
    case request(id: JSONValue, method: String, params: [String: JSONValue])
    case notification(method: String, params: [String: JSONValue])
    case response
    /// Not a JSON-RPC 2.0 message; the id when one could be read, so the error can name it.
    case invalid(id: JSONValue, reason: String)

    /// Reads one JSON-RPC message: a request, a notification, or why it is neither.
    public init(_ value: JSONValue) {
        guard let object = value.object else { self = .invalid(id: .null, reason: "a message must be a JSON object"); return }
        let id = object["id"] ?? .null
        guard object["jsonrpc"]?.string == "2.0" else { self = .invalid(id: id, reason: "jsonrpc: must be \"2.0\""); return }
        if object["result"] != nil || object["error"] != nil { self = .response; return }
        guard let method = object["method"]?.string else { self = .invalid(id: id, reason: "method: a request needs a method name"); return }
        var params: [String: JSONValue] = [:]
        if let given = object["params"] {
            guard let fields = given.object else { self = .invalid(id: id, reason: "params: must be an object"); return }
            params = fields
        }
        guard let requestID = object["id"] else { self = .notification(method: method, params: params); return }
        switch requestID {
        case .string, .number: self = .request(id: requestID, method: method, params: params)
        default: self = .invalid(id: .null, reason: "id: must be a string or a number")
        }
    }

    /// Whether the message is a request, which is answered (the others get HTTP 202 and no body).
    public var isRequest: Bool {
        if case .request = self { true } else { false }
    }
}

/// JSON-RPC's answers.
public enum RPCReply {
    /// A successful answer to request `id`.
    public static func result(_ id: JSONValue, _ result: JSONValue) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id, "result": result])
    }

    /// An error answer to request `id`, with its code and message.
    public static func error(_ id: JSONValue, _ code: Code, _ message: String) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id, "error": .object(["code": .number(Double(code.rawValue)), "message": .string(message)])])
    }

    /// JSON-RPC's codes, and MCP's for a resource that is not there.
    public enum Code: Int, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case resourceNotFound = -32002
    }
}
