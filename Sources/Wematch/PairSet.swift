/// A set of synced pairs, each packed in one non-zero `UInt64`: open addressing with linear
/// probing and a multiplicative hash. A room of 2 000 close hearts has some 70 000 pairs and
/// looks each up several times an update; the standard `Set` spends most of that in SipHash,
/// which guards against keys chosen by an attacker, and these keys are our own serial numbers.
struct PairSet: Sendable {
    private var slots: [UInt64]
    private var mask: Int
    private(set) var count = 0

    init(minimumCapacity: Int = 8) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    @inline(__always)
    private func home(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask }

    func contains(_ key: UInt64) -> Bool {
        var i = home(key)
        while true {
            let slot = slots[i]
            if slot == key { return true }
            if slot == 0 { return false }
            i = (i + 1) & mask
        }
    }

    /// Adds `key` (never 0); returns whether it was new.
    @discardableResult
    mutating func insert(_ key: UInt64) -> Bool {
        precondition(key != 0, "0 marks an empty slot")
        if (count + 1) * 2 > slots.count { grow() }
        var i = home(key)
        while true {
            let slot = slots[i]
            if slot == key { return false }
            if slot == 0 {
                slots[i] = key
                count += 1
                return true
            }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        count = 0
        for key in old where key != 0 { insert(key) }
    }
}
