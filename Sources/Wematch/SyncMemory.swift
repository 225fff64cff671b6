/// Which pairs were synced at the last update, to tell the pairs that have just become synced
/// (each lights a star). Kept as a bit matrix over the members that counted then, by their
/// place among them: a crowded room of 2 000 close hearts has some 70 000 synced pairs, and a
/// hash set of them costs more than the rest of an update (a matrix for 2 000 is 500 KB).
struct SyncMemory {
    /// For each member slot, its place among the active members of the last update, or -1.
    private var placeOfSlot: [Int32] = []
    private var count = 0
    private var bits: [UInt64] = []

    /// Takes this update's `edges` over the members in slots `active` (edges index into it) and
    /// returns the indices of the edges that were not synced at the last update.
    mutating func advance(active: [Int], slotCount: Int, edges: [SyncGraph.Edge]) -> [Int] {
        let n = active.count
        let previous = active.map { $0 < placeOfSlot.count ? Int(placeOfSlot[$0]) : -1 }
        var next = [UInt64](repeating: 0, count: (n * n + 63) / 64)
        var fresh: [Int] = []
        for (index, edge) in edges.enumerated() {
            let a = Int(edge.a), b = Int(edge.b)
            let bit = a * n + b
            next[bit >> 6] |= 1 << UInt64(bit & 63)
            let pa = previous[a], pb = previous[b]
            if pa >= 0, pb >= 0 {
                let old = min(pa, pb) * count + max(pa, pb)
                if bits[old >> 6] & (1 << UInt64(old & 63)) != 0 { continue }
            }
            fresh.append(index)
        }
        var places = [Int32](repeating: -1, count: slotCount)
        for (place, slot) in active.enumerated() { places[slot] = Int32(place) }
        placeOfSlot = places
        count = n
        bits = next
        return fresh
    }
}
