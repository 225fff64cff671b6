import FlapHardware

/// One message of the ANT serial protocol: sync 0xA4, payload length, message id, payload, and
/// a checksum that XORs every byte before it.
public struct ANTMessage: Sendable, Equatable, CustomStringConvertible {
    /// The message id.
    public var id: UInt8
    /// The bytes after the id.
    public var payload: [UInt8]

    /// Message `id` carrying `payload`.
    public init(_ id: UInt8, _ payload: [UInt8]) {
        self.id = id
        self.payload = payload
    }

    /// The byte every message starts with.
    public static let sync: UInt8 = 0xA4
    /// No message the heart-rate profile uses comes near it; a longer "length" is line noise.
    public static let largestPayload = 32

    /// The bytes on the wire.
    public func encoded() -> [UInt8] {
        let head = [Self.sync, UInt8(payload.count), id] + payload
        return head + [head.reduce(0, ^)]
    }

    /// The id and the payload in hexadecimal.
    public var description: String { "0x\(hex(id)) [\(payload.map(hex).joined(separator: " "))]" }
}

/// Cuts a byte stream from an ANT stick into messages. Bytes before a sync byte, an impossible
/// length and a bad checksum are reported and skipped; reading resumes at the next sync byte,
/// so a garbled stretch costs the messages it touched and no more.
public struct ANTFrameReader: Sendable {
    private var buffer: [UInt8] = []

    /// A reader with nothing read yet.
    public init() {}

    /// The messages `bytes` completes, and what was wrong with the bytes skipped, in order.
    public mutating func append(_ bytes: [UInt8]) -> [Result<ANTMessage, HeartRateDecodingError>] {
        buffer += bytes
        var results: [Result<ANTMessage, HeartRateDecodingError>] = []
        var start = 0
        while start < buffer.count {
            guard buffer[start] == ANTMessage.sync else {
                let next = buffer[start...].firstIndex(of: ANTMessage.sync) ?? buffer.count
                results.append(
                    .failure(
                        HeartRateDecodingError(
                            "ANT stream", byte: 0, "\(next - start) bytes before a sync byte (0xA4) skipped, starting 0x\(hex(buffer[start]))")))
                start = next
                continue
            }
            guard start + 1 < buffer.count else { break }
            let length = Int(buffer[start + 1])
            guard length <= ANTMessage.largestPayload else {
                results.append(.failure(HeartRateDecodingError("ANT message", byte: 1, "length \(length) is more than \(ANTMessage.largestPayload)")))
                start += 1
                continue
            }
            let end = start + length + 4
            guard end <= buffer.count else { break }
            let checksum = buffer[start..<(end - 1)].reduce(0, ^)
            guard checksum == buffer[end - 1] else {
                results.append(
                    .failure(
                        HeartRateDecodingError(
                            "ANT message 0x\(hex(buffer[start + 2]))", byte: length + 3,
                            "checksum 0x\(hex(buffer[end - 1])), expected 0x\(hex(checksum))")))
                start += 1
                continue
            }
            results.append(.success(ANTMessage(buffer[start + 2], Array(buffer[(start + 3)..<(end - 1)]))))
            start = end
        }
        buffer.removeFirst(start)
        return results
    }
}
