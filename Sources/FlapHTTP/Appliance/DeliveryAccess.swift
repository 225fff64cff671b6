import FoundationEssentials

/// Real Vestaboards' writes as the API reaches them (`/v1/queue`, and the boards in `/v1/status`).
public protocol DeliveryAccess: Sendable {
    func boards() async -> [BoardStatus]
    /// Newest first, each as the queue's own JSON.
    func deliveries(limit: Int) async throws -> [any Encodable & Sendable]
    /// Gives a failed or conflicting write five more attempts: nil when there is no such
    /// write, false when it is not final.
    func retry(_ id: Int64) async throws -> Bool?
    /// Cancels a write still waiting: nil when there is no such write, false when it is not pending.
    func cancel(_ id: Int64) async throws -> Bool?
}

/// How a real Vestaboard is doing.
public struct BoardStatus: Sendable, Encodable {
    /// The panel it is.
    public var panel: String
    /// `local`, `cloud` or `rw`.
    public var api: String
    /// Where it is reached.
    public var address: String
    /// Whether the last request reached it (nil: none yet).
    public var reachable: Bool?
    /// When a write last succeeded.
    public var lastSuccess: Date?
    /// Why the last request failed, if it did.
    public var lastError: String?
    /// Writes waiting or being sent.
    public var queueDepth: Int
    /// Which Note of an array this is (1 first); nil for a whole board.
    public var note: Int?

    /// The status as given.
    public init(panel: String, api: String, address: String, reachable: Bool?, lastSuccess: Date?, lastError: String?, queueDepth: Int) {
        self.panel = panel
        self.api = api
        self.address = address
        self.reachable = reachable
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.queueDepth = queueDepth
    }
}
