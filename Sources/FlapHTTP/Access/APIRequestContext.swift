import FlapMembers
import Hummingbird
import NIOCore

/// Who a native API request is from, as ``Authentication`` found it.
enum Caller: Sendable, Equatable {
    /// The API key, or the owner's session.
    case owner
    /// A member's key or session: they act as their own sender.
    case member(id: String, sender: String)
    /// The read-only viewer key (dashboards, widgets, TVs).
    case viewer
    /// A webhook source's own key: it may push to that source only.
    case webhook(source: String)

    init(_ principal: Principal) {
        switch principal {
        case .owner: self = .owner
        case .member(let member): self = .member(id: member.id, sender: member.sender)
        }
    }
}

/// The native API's request context: Hummingbird's, with who the request is from (as
/// hummingbird-auth's `AuthRequestContext` carries its identity), so a handler reads its caller
/// from the context and never from a header a client could send.
public struct APIRequestContext: RequestContext {
    /// Hummingbird's own part of the context.
    public var coreContext: CoreRequestContextStorage
    /// Who the request is from; nil until ``Authentication`` has said, and for a request with no
    /// credentials (which only a route open to ``RouteAccess/anyone`` answers).
    var caller: Caller?
    /// A key that is neither the owner's, a member's nor the viewer's, for a route that takes
    /// another (``AccessRoutes/on(_:method:_:otherKey:use:)``); every other route refuses it.
    var otherKey: String?
    /// What a request with no usable credentials is told by a route that needs them (a removed
    /// member's phone is told so).
    var signInNeeded: Response?

    /// The client's address, as its connection says ("local" where it has none), for limits
    /// counted per client.
    let peer: String
    /// The connection the request came on, for the port's shares (``ConnectionShares``).
    let connection: ConnectionID

    /// The context of a request on the connection `source` describes: its peer and the connection's identity.
    public init(source: Source) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress ?? "local"
        connection = ConnectionID(source.channel)
    }

    /// The member a request is from, nil for anyone else.
    var member: (id: String, sender: String)? {
        if case .member(let id, let sender) = caller { (id, sender) } else { nil }
    }

    /// The person the request is from, as presence names them (`owner` or the member's id); nil
    /// for the viewer key and webhooks, which are nobody.
    var person: Person? {
        switch caller {
        case .owner: .owner
        case .member(let id, _): .member(id)
        default: nil
        }
    }

    /// Whose the caller's live streams are (``LiveBoards/watch(whose:)``): the owner's, or a member's.
    var watcherTag: String? { person.map(LiveBoards.watcherTag(person:)) }

    /// Whether the request was made with the viewer key, so what it reads leaves out who sent what.
    var isViewer: Bool { caller == .viewer }
}
