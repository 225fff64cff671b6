/// A room's shape at one moment, as `GET /v1/room` answers it: members with their colours and
/// clusters, sync edges, clusters with their chains, the number of stars. Never anyone's BPM.
public struct RoomState: Sendable, Equatable, Codable {
    public struct Member: Sendable, Equatable, Codable {
        public var id: MemberID
        public var name: String
        public var colour: String
        public var stale: Bool
        /// `hard`, `soft`, or nil when synced with nobody.
        public var cluster: String?
        /// Members on the longest chain of its cluster (1 when alone).
        public var chain: Int
        public var syncedPeers: Int
    }

    public struct Cluster: Sendable, Equatable, Codable {
        /// `hard` (every pair synced) or `soft` (connected).
        public var kind: String
        public var members: [MemberID]
        public var chain: Int
    }

    public var room: String
    /// Admitted members in (joinedAt, id) order.
    public var members: [Member]
    /// Present but beyond the capacity: told the room is full.
    public var waiting: [MemberID]
    /// Synced pairs, each sorted, in order.
    public var edges: [[MemberID]]
    public var clusters: [Cluster]
    public var stars: Int

    init(room: String, admitted: [MemberID], waiting: [MemberID], records: [MemberID: MemberRecord], points: [MemberID: HeartPoint],
         stale: Set<MemberID>, edges: Set<SyncGraph.Pair>, stars: Int) {
        let shape = SyncGraph.shape(edges)
        var clusterOf: [MemberID: SyncGraph.Shape.Component] = [:]
        for component in shape.components { for id in component.members { clusterOf[id] = component } }
        self.room = room
        members = admitted.map { id in
            let component = clusterOf[id]
            return Member(id: id, name: records[id]?.name ?? id, colour: records[id]?.colour ?? Palette.colours[0], stale: stale.contains(id),
                          cluster: component.map { $0.complete ? "hard" : "soft" }, chain: component?.chain ?? 1,
                          syncedPeers: shape.degree[id] ?? 0)
        }
        self.waiting = waiting
        self.edges = edges.sorted().map { [$0.a, $0.b] }
        clusters = shape.components.map { Cluster(kind: $0.complete ? "hard" : "soft", members: $0.members, chain: $0.chain) }
        self.stars = stars
    }

    /// Members synced with someone.
    public var syncedCount: Int { members.filter { $0.syncedPeers > 0 }.count }
    /// The longest chain in the room (0 with no cluster).
    public var longestChain: Int { clusters.map(\.chain).max() ?? 0 }
}
