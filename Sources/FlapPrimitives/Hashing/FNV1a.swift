/// FNV-1a, 64 bits: a fast hash that is the same in every process and on every machine (unlike
/// `Hasher`, which is seeded per process), for telling contents apart and for seeds made from
/// names. Not for security.
@frozen
public struct FNV1a: Sendable {
    @usableFromInline var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of everything added so far.
    @inlinable public var value: UInt64 { state }

    /// A hash of nothing yet (the offset basis).
    @inlinable public init() {}

    /// Folds one byte in.
    @inlinable public mutating func add(_ byte: UInt8) { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }

    /// Folds each of `bytes` in, in order.
    @inlinable public mutating func add(_ bytes: some Sequence<UInt8>) { for byte in bytes { add(byte) } }

    /// The hash of `text`'s UTF-8 bytes.
    @inlinable public static func hash(_ text: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(text.utf8)
        return hash.value
    }

    /// The hash as an HTTP entity tag, quoted.
    public var entityTag: String { "\"" + String(value, radix: 16) + "\"" }
}
