/// The protobuf wire format, just as much as the Chainlink messages need (varints, length-delimited
/// fields, proto3's omission of default values). Hand-written instead of generated swift-protobuf
/// code: the messages are few and small, and building the code generator costs ~10 minutes per
/// clean build (measured on a 2-core machine). Checked against Python's protobuf library in the tests.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A varint field; omitted when zero, as proto3 encoders do.
    mutating func uint(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        varint(UInt64(field << 3))
        varint(value)
    }

    mutating func bool(_ field: Int, _ value: Bool) { uint(field, value ? 1 : 0) }

    /// A length-delimited field (a nested message, bytes, a string). `always` keeps an empty one
    /// (an empty sub-message that selects a oneof case, or a repeated element).
    mutating func bytes(_ field: Int, _ value: [UInt8], always: Bool = false) {
        guard always || !value.isEmpty else { return }
        varint(UInt64(field << 3 | 2))
        varint(UInt64(value.count))
        bytes += value
    }
}

/// Reads fields one by one; unknown fields are skipped, as protobuf requires.
struct ProtobufReader {
    private let data: [UInt8]
    private var offset = 0

    init(_ data: [UInt8]) { self.data = data }

    enum Value {
        case varint(UInt64)
        case bytes([UInt8])
        case other
    }

    mutating func next() throws(ChainlinkError) -> (field: Int, value: Value)? {
        guard offset < data.count else { return nil }
        let key = try varint()
        let field = Int(key >> 3)
        switch key & 7 {
        case 0: return (field, .varint(try varint()))
        case 2:
            let length = Int(try varint())
            guard length >= 0, offset + length <= data.count else { throw ChainlinkError("a field runs past the end of the message") }
            defer { offset += length }
            return (field, .bytes(Array(data[offset..<offset + length])))
        case 5:
            guard offset + 4 <= data.count else { throw ChainlinkError("a 32-bit field runs past the end") }
            offset += 4
            return (field, .other)
        case 1:
            guard offset + 8 <= data.count else { throw ChainlinkError("a 64-bit field runs past the end") }
            offset += 8
            return (field, .other)
        default:
            throw ChainlinkError("wire type \(key & 7) is not one protobuf uses here")
        }
    }

    private mutating func varint() throws(ChainlinkError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < data.count, shift < 64 {
            let byte = data[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw ChainlinkError("a varint runs past the end of the message")
    }
}

/// A Chainlink frame or message that cannot be read.
public struct ChainlinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
