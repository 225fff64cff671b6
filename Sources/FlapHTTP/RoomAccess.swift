import Wematch

/// The kiosk's rooms as the API reaches them.
public protocol RoomAccess: Sendable {
    /// The room this kiosk is in, with its listing and code; nil when in none.
    func current() async -> RoomAnswer?
    /// The room as a kiosk draws it; nil when in none.
    func plot() async -> RoomPlot?
    func join(code: String) async throws(RoomRequestError) -> RoomAnswer
    func createPair() async throws(RoomRequestError) -> RoomAnswer
    /// Leaves; returns the room left and the room the kiosk is in now.
    func leave() async -> (left: String?, now: String?)
}

/// `GET /v1/room`'s answer: the room's state (members, edges, clusters, stars; never anyone's
/// BPM) with the code to join it by, its kind and its capacity.
public struct RoomAnswer: Sendable, Encodable {
    public var state: RoomState
    public var listing: RoomListing
    public var code: RoomCode

    public init(state: RoomState, listing: RoomListing, code: RoomCode) {
        self.state = state
        self.listing = listing
        self.code = code
    }

    enum Keys: String, CodingKey { case code, kind, capacity }

    public func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(code.text, forKey: .code)
        try container.encode(listing.kind.rawValue, forKey: .kind)
        try container.encode(listing.capacity, forKey: .capacity)
    }
}
