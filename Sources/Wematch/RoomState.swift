/// A room's shape at one moment, as `GET /v1/room` answers it: members with their colours and
/// clusters, sync edges, clusters with their chains, the number of stars. Never anyone's BPM.
public struct RoomState: Sendable, Equatable {
    /// A member as the room shows it.
    public struct Member: Sendable, Equatable, Codable {
        /// Its id.
        public var id: MemberID
        /// Its name.
        public var name: String
        /// Its colour, `#rrggbb`.
        public var colour: String
        /// Whether it has gone unheard.
        public var stale: Bool
        /// `hard`, `soft`, or nil when synced with nobody.
        public var cluster: String?
        /// Members on the longest chain of its cluster (1 when alone).
        public var chain: Int
        /// How many it is synced with.
        public var syncedPeers: Int
    }

    /// Members synced together.
    public struct Cluster: Sendable, Equatable, Codable {
        /// `hard` (every pair synced) or `soft` (connected).
        public var kind: String
        /// Ids, sorted.
        public var members: [MemberID]
        /// Members on its longest chain.
        public var chain: Int
    }

    /// The room's name.
    public var room: String
    /// Admitted members in (joinedAt, id) order.
    public var members: [Member]
    /// Present but beyond the capacity: told the room is full.
    public var waiting: [MemberID]
    /// Synced pairs as indices into `members`, in order.
    public var synced: [SyncGraph.Edge]
    /// Clusters in order of their first member's id.
    public var clusters: [Cluster]
    /// How many stars shine.
    public var stars: Int

    /// `records` and `stale` go with `admitted`; `synced` are indices into it, in order.
    init(
        room: String, admitted: [MemberID], waiting: [MemberID], records: [MemberRecord], stale: [Bool],
        synced: [SyncGraph.Edge], stars: Int
    ) {
        self.synced = synced
        let shape = SyncGraph.shape(count: admitted.count, synced)
        var clusterOf = [Int](repeating: -1, count: admitted.count)
        for (index, component) in shape.components.enumerated() { for member in component.members { clusterOf[member] = index } }
        self.room = room
        members = admitted.enumerated().map { index, id in
            let component = clusterOf[index] >= 0 ? shape.components[clusterOf[index]] : nil
            return Member(
                id: id, name: records[index].name, colour: records[index].colour, stale: stale[index],
                cluster: component.map { $0.complete ? "hard" : "soft" }, chain: component?.chain ?? 1,
                syncedPeers: shape.degree[index])
        }
        self.waiting = waiting
        clusters = shape.components.map {
            Cluster(kind: $0.complete ? "hard" : "soft", members: $0.members.map { admitted[$0] }.sorted(), chain: $0.chain)
        }
        .sorted { $0.members[0] < $1.members[0] }
        self.stars = stars
    }

    /// An empty room called `room`.
    public init(room: String) {
        self.init(room: room, admitted: [], waiting: [], records: [], stale: [], synced: [], stars: 0)
    }

    /// Synced pairs by id, each sorted, in order of members.
    public var edges: [[MemberID]] {
        synced.map { [members[Int($0.a)].id, members[Int($0.b)].id].sorted() }
    }

    /// Members synced with someone.
    public var syncedCount: Int { members.filter { $0.syncedPeers > 0 }.count }
    /// The longest chain in the room (0 with no cluster).
    public var longestChain: Int { clusters.map(\.chain).max() ?? 0 }
}

extension RoomState: Codable {
    enum Keys: String, CodingKey { case room, members, waiting, edges, clusters, stars }

    /// Writes the state as `GET /v1/room` answers it (sync edges as `edges`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(room, forKey: .room)
        try container.encode(members, forKey: .members)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(edges, forKey: .edges)
        try container.encode(clusters, forKey: .clusters)
        try container.encode(stars, forKey: .stars)
    }

    /// Reads a state written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        room = try container.decode(String.self, forKey: .room)
        members = try container.decode([Member].self, forKey: .members)
        waiting = try container.decodeIfPresent([MemberID].self, forKey: .waiting) ?? []
        var position: [MemberID: Int] = [:]
        for (index, member) in members.enumerated() { position[member.id] = index }
        synced = try container.decode([[MemberID]].self, forKey: .edges).compactMap { pair in
            guard pair.count == 2, let a = position[pair[0]], let b = position[pair[1]] else { return nil }
            return SyncGraph.Edge(a, b)
        }
        clusters = try container.decode([Cluster].self, forKey: .clusters)
        stars = try container.decode(Int.self, forKey: .stars)
    }
}
