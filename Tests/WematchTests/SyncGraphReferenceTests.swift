import FlapPrimitives
import Testing

@testable import Wematch

/// Seeded random rooms checked against a brute-force reference written here: every pair
/// compared, components by repeated merging, hard by checking every pair, chains by
/// Floyd–Warshall.
@Suite struct SyncGraphReferenceTests {
    struct Reference {
        var edges: Set<SyncGraph.Pair> = []
        var clusters: [(members: [MemberID], hard: Bool, chain: Int)] = []

        init(_ points: [MemberID: HeartPoint]) {
            let ids = points.keys.sorted()
            for i in ids.indices {
                for j in ids.indices where j > i {
                    let a = points[ids[i]]!, b = points[ids[j]]!
                    let d = ((a.previous - b.previous) * (a.previous - b.previous) + (a.current - b.current) * (a.current - b.current)).squareRoot()
                    if d < 5 { edges.insert(SyncGraph.Pair(ids[i], ids[j])) }
                }
            }
            var group = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0) })
            var changed = true
            while changed {
                changed = false
                for edge in edges where group[edge.a] != group[edge.b] {
                    let keep = min(group[edge.a]!, group[edge.b]!), drop = max(group[edge.a]!, group[edge.b]!)
                    for id in ids where group[id] == drop { group[id] = keep }
                    changed = true
                }
            }
            let groups = Dictionary(grouping: ids, by: { group[$0]! }).values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
            for members in groups {
                var hard = true
                for a in members { for b in members where a < b && !edges.contains(SyncGraph.Pair(a, b)) { hard = false } }
                let n = members.count
                var d = [[Int]](repeating: [Int](repeating: 1 << 20, count: n), count: n)
                for i in 0..<n { d[i][i] = 0 }
                for i in 0..<n { for j in 0..<n where edges.contains(SyncGraph.Pair(members[i], members[j])) { d[i][j] = 1 } }
                for k in 0..<n { for i in 0..<n { for j in 0..<n where d[i][k] + d[k][j] < d[i][j] { d[i][j] = d[i][k] + d[k][j] } } }
                clusters.append((members, hard, (d.flatMap { $0 }.max() ?? 0) + 1))
            }
        }
    }

    @Test(arguments: 0..<40) func randomRoomsMatchTheReference(_ seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 1)
        let count = 2 + Int(random.next() % 40)
        // Crowded rooms (a small range) make long chains and big clusters; spread ones make few.
        let spread = [12.0, 25, 60, 160][seed % 4]
        var points: [MemberID: HeartPoint] = [:]
        for i in 0..<count {
            points["m\(i)"] = HeartPoint(previous: 60 + random.next(in: 0...spread), current: 60 + random.next(in: 0...spread))
        }
        let reference = Reference(points)
        let ids = (0..<count).map { "m\($0)" }
        let edges = SyncGraph.edges(ids.map { points[$0]! }, within: 5)
        #expect(Set(edges.map { SyncGraph.Pair(ids[Int($0.a)], ids[Int($0.b)]) }) == reference.edges)
        #expect(edges == edges.sorted() && Set(edges).count == edges.count)
        let shape = SyncGraph.shape(count: count, edges)
        func summary(_ members: [MemberID], _ hard: Bool, _ chain: Int) -> String { "\(members.sorted())/\(hard)/\(chain)" }
        let found = Set(shape.components.map { summary($0.members.map { ids[$0] }, $0.complete, $0.chain) })
        #expect(found == Set(reference.clusters.map { summary($0.members, $0.hard, $0.chain) }))
        #expect(shape.components.count == reference.clusters.count)
    }
}

extension SyncGraphReferenceTests {
    /// The random rooms above are worth checking: long chains, hard and soft clusters both.
    @Test func theRandomRoomsHaveLongChainsAndBothKinds() {
        var chains: [Int] = [], hard = 0, soft = 0
        for seed in 0..<40 {
            var random = SeededRandom(seed: UInt64(seed) &* 7919 &+ 1)
            let count = 2 + Int(random.next() % 40)
            let spread = [12.0, 25, 60, 160][seed % 4]
            let points = (0..<count).map { _ in HeartPoint(previous: 60 + random.next(in: 0...spread), current: 60 + random.next(in: 0...spread)) }
            let shape = SyncGraph.shape(count: count, SyncGraph.edges(points, within: 5))
            chains += shape.components.map(\.chain)
            hard += shape.components.filter(\.complete).count
            soft += shape.components.filter { !$0.complete }.count
        }
        #expect((chains.max() ?? 0) >= 6 && hard >= 5 && soft >= 5, "chains \(chains.max() ?? 0), hard \(hard), soft \(soft)")
    }
}
