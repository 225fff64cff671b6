/// FNV-1a, 64 bits: a fast hash for telling contents apart (ETags), not for security.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }

    public mutating func add(_ bytes: some Sequence<UInt8>) { for byte in bytes { add(byte) } }

    /// The hash as an HTTP entity tag, quoted.
    public var entityTag: String { "\"" + String(value, radix: 16) + "\"" }
}
