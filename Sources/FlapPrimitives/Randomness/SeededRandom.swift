/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so a plan's
/// random order, clack gains, a room's stars and names, and a simulated strap's heart come out
/// the same on every machine for the same seed. (The standard library's generator cannot be
/// seeded.)
@frozen
public struct SeededRandom: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// A generator whose numbers follow from `seed` alone.
    @inlinable public init(seed: UInt64) { state = seed }

    /// The next number of the sequence.
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<1` with 53 bits of precision.
    @inlinable public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A value in `range`, spread evenly.
    @inlinable public mutating func next(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() >> 11) / Double(1 << 53)
    }
}
