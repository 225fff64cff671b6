/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so a plan's
/// random order and clack gains are the same on every machine for the same seed.
/// (The standard library's generator cannot be seeded.)
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<1` with 53 bits of precision.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
