import FlapMembers
import HTTPTypes
import Hummingbird

/// What a member may do, and how a request says it is a member's. Members post and clear as
/// their own sender, read their own receipts, see the board, the slots' names, the widgets and
/// the content sources, and push to webhook sources; everything else is the owner's.
enum MemberAccess {
    /// Set by ``Authentication`` on a member's request (any a client sets itself is removed).
    static let idMark = HTTPField.Name("Flapd-Member")!
    static let senderMark = HTTPField.Name("Flapd-Member-Sender")!

    /// The member a request is from: (id, sender); nil for the owner.
    static func member(of request: Request) -> (id: String, sender: String)? {
        guard let id = request.headers[idMark], let sender = request.headers[senderMark] else { return nil }
        return (id, sender)
    }

    /// The request with `principal` marked on it, and any mark the client sent removed.
    static func marked(_ request: Request, as principal: Principal) -> Request {
        var head = request.head
        head.headerFields[idMark] = nil
        head.headerFields[senderMark] = nil
        if case .member(let member) = principal {
            head.headerFields[idMark] = member.id
            head.headerFields[senderMark] = member.sender
        }
        return Request(head: head, body: request.body)
    }

    /// What a member may ask for: reads of the board and what it is made of, and their own
    /// messages (the handlers hold them to their own sender).
    static func allows(_ method: HTTPRequest.Method, _ path: String) -> Bool {
        switch method {
        case .get, .head:
            return ["/v1/board", "/v1/board.png", "/v1/board.svg", "/v1/events", "/v1/slots", "/v1/emoji", "/v1/status", "/v1/receipts",
                    "/v1/sound/clack.wav"].contains(path)
                || path.hasPrefix("/v1/receipts/") || path == "/v1/sources" || path.hasPrefix("/v1/sources/")
        case .post:
            return path == "/v1/messages" || path == "/v1/layout" || SourcesAPI.webhookName(path) != nil
        case .delete:
            return path.hasPrefix("/v1/slots/") || path.hasPrefix("/v1/messages/") || path == "/v1/temporary"
        default:
            return false
        }
    }

    static let refusal = "a member may send messages as their own sender, clear their own slot, end their own temporary message, "
        + "cancel their own messages sent for later, read their own receipts, see the board, the slots, the widgets and the sources, "
        + "hear the clack, and push to webhook sources; "
        + "the rest is the owner's (the API key, or the owner's session)"
}
