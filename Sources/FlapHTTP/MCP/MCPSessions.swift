import FlapMCP
import FoundationEssentials

/// The MCP clients connected over HTTP, each a session named by the `Mcp-Session-Id` flapd gave
/// it at `initialize`, with the protocol revision agreed. A session unused for ``idle`` is
/// closed (its next request gets 404, and the client starts a new one); when ``most`` are open
/// the longest unused makes room.
public actor MCPSessions<C: Clock> where C.Duration == Duration {
    struct Session {
        var version: String
        var lastUsed: C.Instant
        /// Resources the client asked to hear about when they change.
        var subscribed: Set<String> = []
    }

    private var sessions: [String: Session] = [:]
    private let clock: C
    /// How long a session may go unused before it is forgotten.
    public nonisolated let idle: Duration
    /// The most sessions kept; one more forgets the one unused longest.
    public nonisolated let most: Int

    /// Sessions on `clock`, forgotten after `idle`, at most `most`.
    public init(clock: C, idle: Duration = .seconds(30 * 60), most: Int = 64) {
        self.clock = clock
        self.idle = idle
        self.most = most
    }

    /// Opens a session speaking `version`; its id.
    public func open(version: String) -> String {
        closeIdle()
        if sessions.count >= most, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            sessions[oldest] = nil
        }
        let id = UUID().uuidString.lowercased()
        sessions[id] = Session(version: version, lastUsed: clock.now)
        return id
    }

    /// The revision a session speaks, marking it used; nil when there is no such open session.
    public func use(_ id: String) -> String? {
        closeIdle()
        guard var session = sessions[id] else { return nil }
        session.lastUsed = clock.now
        sessions[id] = session
        return session.version
    }

    /// The resources a session subscribed to (none when it is closed).
    public func subscriptions(_ id: String) -> Set<String> { sessions[id]?.subscribed ?? [] }

    /// Session `id` hears when `uri` changes.
    public func subscribe(_ id: String, to uri: String) { sessions[id]?.subscribed.insert(uri) }

    /// Session `id` no longer hears of `uri`.
    public func unsubscribe(_ id: String, from uri: String) { sessions[id]?.subscribed.remove(uri) }

    /// Ends a session; false when there was none.
    public func close(_ id: String) -> Bool {
        sessions.removeValue(forKey: id) != nil
    }

    /// How many sessions are kept.
    public var count: Int { sessions.count }

    private func closeIdle() {
        let now = clock.now
        sessions = sessions.filter { $0.value.lastUsed.duration(to: now) < idle }
    }
}

/// One session's subscriptions, as the MCP server asks for them.
struct SessionSubscriptions<C: Clock>: MCPSubscriptionBook where C.Duration == Duration {
    let sessions: MCPSessions<C>
    let id: String

    func subscribe(_ uri: String) async { await sessions.subscribe(id, to: uri) }
    func unsubscribe(_ uri: String) async { await sessions.unsubscribe(id, from: uri) }
}
