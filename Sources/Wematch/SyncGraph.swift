/// Who is synced with whom, and the shapes that makes: pure functions over points, by index
/// (a room of 2 000 close hearts has some 100 000 synced pairs; ids would be hashed for each).
public enum SyncGraph {
    /// Two members by their index, smaller first.
    public struct Edge: Hashable, Sendable, Comparable {
        /// The smaller index.
        public let a: Int32
        /// The larger index.
        public let b: Int32

        /// The edge between `x` and `y`, in either order.
        public init(_ x: Int, _ y: Int) {
            (a, b) = x < y ? (Int32(x), Int32(y)) : (Int32(y), Int32(x))
        }

        /// Edges in order of their smaller index, then their larger.
        public static func < (l: Edge, r: Edge) -> Bool { (l.a, l.b) < (r.a, r.b) }
    }

    /// An unordered pair of members by id, smaller id first.
    public struct Pair: Hashable, Sendable, Comparable {
        /// The smaller id.
        public let a: MemberID
        /// The larger id.
        public let b: MemberID

        /// The pair of `x` and `y`, in either order.
        public init(_ x: MemberID, _ y: MemberID) {
            (a, b) = x < y ? (x, y) : (y, x)
        }

        /// Pairs in order of their smaller id, then their larger.
        public static func < (l: Pair, r: Pair) -> Bool { (l.a, l.b) < (r.a, r.b) }
    }

    /// Pairs of `points` less than `distance` apart, sorted. Points are bucketed in a grid of
    /// `distance`-wide cells, so each is compared with its neighbours only.
    public static func edges(_ points: [HeartPoint], within distance: Double) -> [Edge] {
        guard !points.isEmpty else { return [] }
        let xs = points.map { Int(($0.previous / distance).rounded(.down)) }
        let ys = points.map { Int(($0.current / distance).rounded(.down)) }
        guard let minX = xs.min(), let minY = ys.min(), let maxX = xs.max(), let maxY = ys.max() else { return [] }
        let width = maxX - minX + 1, height = maxY - minY + 1
        // Members by cell, in one array: where each cell's run starts, then the runs.
        var start = [Int](repeating: 0, count: width * height + 1)
        for i in points.indices { start[(ys[i] - minY) * width + xs[i] - minX + 1] += 1 }
        for c in 0..<width * height { start[c + 1] += start[c] }
        var filled = start
        var members = [Int](repeating: 0, count: points.count)
        for i in points.indices {
            let c = (ys[i] - minY) * width + xs[i] - minX
            members[filled[c]] = i
            filled[c] += 1
        }
        var found: [Edge] = []
        var near: [Int] = []
        for (index, point) in points.enumerated() {
            near.removeAll(keepingCapacity: true)
            let x = xs[index] - minX, y = ys[index] - minY
            for cy in max(0, y - 1)...min(height - 1, y + 1) {
                for cx in max(0, x - 1)...min(width - 1, x + 1) {
                    let c = cy * width + cx
                    for other in members[start[c]..<start[c + 1]] where other > index {
                        if point.distance(to: points[other]) < distance { near.append(other) }
                    }
                }
            }
            // In order without sorting them all: by member, then each member's few peers.
            near.sort()
            for other in near { found.append(Edge(index, other)) }
        }
        return found
    }

    /// A sync graph's components, each with its kind and chain length, and each member's degree.
    public struct Shape: Sendable, Equatable {
        /// One connected part of the graph.
        public struct Component: Sendable, Equatable {
            /// Member indices, ascending.
            public var members: [Int]
            /// Every pair synced (a hard cluster), or only connected (soft).
            public var complete: Bool
            /// Members on the longest shortest path: the diameter in edges, plus one.
            public var chain: Int
        }

        /// Components of two members or more, in order of their first member.
        public var components: [Component]
        /// Synced peers of each member.
        public var degree: [Int]
    }

    /// Each member's peers in one array (compressed sparse rows): member i's are
    /// `peers[start[i]..<start[i + 1]]`. One allocation, where an array per member would be two
    /// thousand of them in a crowded room.
    struct Adjacency {
        var start: [Int]
        var peers: [Int]

        init(count: Int, _ edges: [Edge]) {
            var start = [Int](repeating: 0, count: count + 1)
            for edge in edges {
                start[Int(edge.a) + 1] += 1
                start[Int(edge.b) + 1] += 1
            }
            for i in 0..<count { start[i + 1] += start[i] }
            var filled = start
            var peers = [Int](repeating: 0, count: 2 * edges.count)
            for edge in edges {
                let a = Int(edge.a), b = Int(edge.b)
                peers[filled[a]] = b
                filled[a] += 1
                peers[filled[b]] = a
                filled[b] += 1
            }
            self.start = start
            self.peers = peers
        }

        @inline(__always) func degree(_ member: Int) -> Int { start[member + 1] - start[member] }
    }

    /// The shape of `edges` over `count` members.
    public static func shape(count: Int, _ edges: [Edge]) -> Shape {
        let graph = Adjacency(count: count, edges)
        var componentOf = [Int](repeating: -1, count: count)
        var groups: [[Int]] = []
        for first in 0..<count where componentOf[first] < 0 && graph.degree(first) > 0 {
            var group = [first]
            componentOf[first] = groups.count
            var cursor = 0
            while cursor < group.count {
                let member = group[cursor]
                for peer in graph.peers[graph.start[member]..<graph.start[member + 1]] where componentOf[peer] < 0 {
                    componentOf[peer] = groups.count
                    group.append(peer)
                }
                cursor += 1
            }
            groups.append(group)
        }
        var distance = [Int](repeating: -1, count: count)
        var lower = [Int](repeating: 0, count: count), upper = [Int](repeating: Int.max, count: count)
        let components = groups.map { group in
            let complete = group.allSatisfy { graph.degree($0) == group.count - 1 }
            let chain = complete ? 2 : diameter(group, graph, &distance, &lower, &upper) + 1
            return Shape.Component(members: group.sorted(), complete: complete, chain: chain)
        }
        return Shape(components: components, degree: (0..<count).map { graph.degree($0) })
    }

    /// The largest eccentricity in `group` (its diameter), exactly, by Takes and Kosters'
    /// bounding algorithm: each breadth-first search bounds every member's eccentricity, and
    /// members that cannot lengthen the diameter drop out; a handful of searches usually settle
    /// it where one from every member would cost the square of the component's size.
    private static func diameter(_ group: [Int], _ graph: Adjacency, _ distance: inout [Int], _ lower: inout [Int], _ upper: inout [Int]) -> Int {
        for member in group {
            lower[member] = 0
            upper[member] = Int.max
        }
        var candidates = group
        var longest = 0, bound = Int.max
        var fromHigh = true
        var queue = [Int]()
        queue.reserveCapacity(group.count)
        while !candidates.isEmpty && longest < bound {
            guard
                let start = fromHigh
                    ? candidates.max(by: { (upper[$0], graph.degree($0), -$0) < (upper[$1], graph.degree($1), -$1) })
                    : candidates.min(by: { (lower[$0], -graph.degree($0), $0) < (lower[$1], -graph.degree($1), $1) })
            else { break }
            fromHigh.toggle()
            for member in group { distance[member] = -1 }
            queue.removeAll(keepingCapacity: true)
            queue.append(start)
            distance[start] = 0
            var cursor = 0
            while cursor < queue.count {
                let member = queue[cursor]
                cursor += 1
                let next = distance[member] + 1
                for peer in graph.peers[graph.start[member]..<graph.start[member + 1]] where distance[peer] < 0 {
                    distance[peer] = next
                    queue.append(peer)
                }
            }
            let eccentricity = distance[queue[queue.count - 1]]
            longest = max(longest, eccentricity)
            bound = min(bound, 2 * eccentricity)
            var highest = 0
            for member in candidates {
                let d = distance[member]
                lower[member] = max(lower[member], eccentricity - d, d)
                upper[member] = min(upper[member], eccentricity + d)
                longest = max(longest, lower[member])
                highest = max(highest, upper[member])
            }
            bound = min(bound, max(longest, highest))
            // A member whose eccentricity is known, or cannot exceed the longest found, is settled.
            candidates.removeAll { upper[$0] <= longest || lower[$0] == upper[$0] }
        }
        return longest
    }
}
