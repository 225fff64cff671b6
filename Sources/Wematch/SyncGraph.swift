/// Who is synced with whom, and the shapes that makes: pure functions over points.
public enum SyncGraph {
    /// An unordered pair of members, smaller id first.
    public struct Pair: Hashable, Sendable, Comparable {
        public let a: MemberID
        public let b: MemberID

        public init(_ x: MemberID, _ y: MemberID) {
            (a, b) = x < y ? (x, y) : (y, x)
        }

        public static func < (l: Pair, r: Pair) -> Bool { (l.a, l.b) < (r.a, r.b) }
    }

    /// Pairs whose points are less than `distance` apart. Points are bucketed in a grid of
    /// `distance`-wide cells, so each is compared with its neighbours only: linear in members
    /// for rooms spread over the plot.
    public static func edges(_ points: [MemberID: HeartPoint], within distance: Double) -> Set<Pair> {
        struct Cell: Hashable { var x: Int; var y: Int }
        func cell(_ p: HeartPoint) -> Cell { Cell(x: Int((p.previous / distance).rounded(.down)), y: Int((p.current / distance).rounded(.down))) }
        var grid: [Cell: [(MemberID, HeartPoint)]] = [:]
        for (id, point) in points { grid[cell(point), default: []].append((id, point)) }
        var found = Set<Pair>()
        for (id, point) in points {
            let home = cell(point)
            for dx in -1...1 {
                for dy in -1...1 {
                    for (other, otherPoint) in grid[Cell(x: home.x + dx, y: home.y + dy)] ?? [] where other > id {
                        if point.distance(to: otherPoint) < distance { found.insert(Pair(id, other)) }
                    }
                }
            }
        }
        return found
    }

    /// A sync graph's components, each with its kind and chain length, and each member's degree.
    public struct Shape: Sendable, Equatable {
        public struct Component: Sendable, Equatable {
            /// Sorted ids.
            public var members: [MemberID]
            /// Every pair synced (a hard cluster), or only connected (soft).
            public var complete: Bool
            /// Members on the longest shortest path: the diameter in edges, plus one.
            public var chain: Int
        }

        /// Components of two members or more, in order of their first member.
        public var components: [Component]
        /// Synced peers of each member that has any.
        public var degree: [MemberID: Int]
    }

    /// The shape of `edges` over the members they name.
    public static func shape(_ edges: Set<Pair>) -> Shape {
        var index: [MemberID: Int] = [:]
        var ids: [MemberID] = []
        for edge in edges.sorted() {
            for id in [edge.a, edge.b] where index[id] == nil {
                index[id] = ids.count
                ids.append(id)
            }
        }
        var neighbours = [[Int]](repeating: [], count: ids.count)
        for edge in edges {
            let a = index[edge.a]!, b = index[edge.b]!
            neighbours[a].append(b)
            neighbours[b].append(a)
        }
        var componentOf = [Int](repeating: -1, count: ids.count)
        var groups: [[Int]] = []
        for start in ids.indices.sorted(by: { ids[$0] < ids[$1] }) where componentOf[start] < 0 {
            var group = [start]
            componentOf[start] = groups.count
            var cursor = 0
            while cursor < group.count {
                for peer in neighbours[group[cursor]] where componentOf[peer] < 0 {
                    componentOf[peer] = groups.count
                    group.append(peer)
                }
                cursor += 1
            }
            groups.append(group)
        }
        var distance = [Int](repeating: -1, count: ids.count)
        let components = groups.map { group in
            let complete = group.allSatisfy { neighbours[$0].count == group.count - 1 }
            let chain = complete ? min(group.count, 2) : eccentricityMax(group, neighbours, &distance) + 1
            return Shape.Component(members: group.map { ids[$0] }.sorted(), complete: complete, chain: chain)
        }
        var degree: [MemberID: Int] = [:]
        for (i, id) in ids.enumerated() { degree[id] = neighbours[i].count }
        return Shape(components: components, degree: degree)
    }

    /// The largest eccentricity in `group` (its diameter), exactly, by Takes and Kosters'
    /// bounding algorithm: each breadth-first search bounds every member's eccentricity, and
    /// members that cannot lengthen the diameter drop out; a handful of searches usually settle
    /// it where one from every member would cost the square of the component's size.
    private static func eccentricityMax(_ group: [Int], _ neighbours: [[Int]], _ distance: inout [Int]) -> Int {
        var lower = [Int: Int](), upper = [Int: Int]()
        for member in group { lower[member] = 0; upper[member] = Int.max }
        var candidates = group
        var longest = 0, bound = Int.max
        var fromHigh = true
        var queue = [Int]()
        queue.reserveCapacity(group.count)
        while !candidates.isEmpty && longest < bound {
            let start = fromHigh
                ? candidates.max { (upper[$0]!, neighbours[$0].count, -$0) < (upper[$1]!, neighbours[$1].count, -$1) }!
                : candidates.min { (lower[$0]!, -neighbours[$0].count, $0) < (lower[$1]!, -neighbours[$1].count, $1) }!
            fromHigh.toggle()
            for member in group { distance[member] = -1 }
            queue.removeAll(keepingCapacity: true)
            queue.append(start)
            distance[start] = 0
            var cursor = 0
            while cursor < queue.count {
                let member = queue[cursor]
                cursor += 1
                for peer in neighbours[member] where distance[peer] < 0 {
                    distance[peer] = distance[member] + 1
                    queue.append(peer)
                }
            }
            let eccentricity = distance[queue[queue.count - 1]]
            longest = max(longest, eccentricity)
            bound = min(bound, 2 * eccentricity)
            var highest = 0
            for member in candidates {
                let d = distance[member]
                lower[member] = max(lower[member]!, eccentricity - d, d)
                upper[member] = min(upper[member]!, eccentricity + d)
                longest = max(longest, lower[member]!)
                highest = max(highest, upper[member]!)
            }
            bound = min(bound, max(longest, highest))
            // A member whose eccentricity is known, or cannot exceed the longest found, is settled.
            candidates.removeAll { upper[$0]! <= longest || lower[$0]! == upper[$0]! }
        }
        return longest
    }
}
