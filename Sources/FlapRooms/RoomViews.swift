import Wematch

/// `GET /v1/room`'s answer: the room's state (members, edges, clusters, stars; never anyone's
/// BPM) with the code to join it by, its kind and its capacity.
public struct RoomAnswer: Sendable, Encodable {
    /// Who is in the room and who is synced.
    public var state: RoomState
    /// The room as it is listed.
    public var listing: RoomListing
    /// The code people join by.
    public var code: RoomCode

    /// An answer of `state`, `listing` and `code`.
    public init(state: RoomState, listing: RoomListing, code: RoomCode) {
        self.state = state
        self.listing = listing
        self.code = code
    }

    enum Keys: String, CodingKey { case code, kind, capacity }

    /// The state's fields, with the code, the listing's kind and its capacity beside them.
    public func encode(to encoder: any Encoder) throws {
        try state.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(code.text, forKey: .code)
        try container.encode(listing.kind.rawValue, forKey: .kind)
        try container.encode(listing.capacity, forKey: .capacity)
    }
}

/// `GET /v1/room/plot`: the room as a kiosk draws it, for the web page: each heart's place as
/// fractions of the axes (0 at 40 BPM, 1 at 200; held inside them), the rings, the stars, the
/// legend. Places are for drawing only; no one's BPM is given as a number.
public struct RoomPlotView: Sendable, Encodable {
    struct Heart: Encodable { var id: String; var colour: String; var stale: Bool; var x: Double; var y: Double }
    struct Star: Encodable { var x: Double; var y: Double; var opacity: Double }
    struct Member: Encodable { var id: String; var name: String; var colour: String; var stale: Bool }
    var room: String
    var members: [Member]
    var hearts: [Heart]
    var clusters: [RoomState.Cluster]
    var stars: [Star]
    var synced: Int
    var longestChain: Int

    /// The view of `plot`.
    public init(_ plot: RoomPlot) {
        let axis = Room<ContinuousClock.Instant>.axis
        func fraction(_ bpm: Double) -> Double {
            let value = (bpm - axis.lowerBound) / (axis.upperBound - axis.lowerBound)
            return (min(1, max(0, value)) * 1000).rounded() / 1000
        }
        room = plot.state.room
        members = plot.state.members.map { Member(id: $0.id, name: $0.name, colour: $0.colour, stale: $0.stale) }
        hearts = plot.hearts.map {
            Heart(id: $0.id, colour: $0.colour, stale: $0.stale, x: fraction($0.point.previous), y: fraction($0.point.current))
        }
        clusters = plot.state.clusters
        stars = plot.stars.map {
            Star(x: fraction($0.position.previous), y: fraction($0.position.current), opacity: ($0.opacity * 100).rounded() / 100)
        }
        synced = plot.state.syncedCount
        longestChain = plot.state.longestChain
    }
}
