import FlapCore

/// Consistent Overhead Byte Stuffing: a frame without zero bytes, so 0x00 can end it.
public enum COBS {
    /// `data` with its zeros stuffed away, ready for a 0x00 delimiter.
    public static func encode(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0]
        var codeIndex = 0
        var code: UInt8 = 1
        for byte in data {
            if byte == 0 {
                out[codeIndex] = code
                codeIndex = out.count
                out.append(0)
                code = 1
            } else {
                out.append(byte)
                code += 1
                if code == 0xFF {
                    out[codeIndex] = code
                    codeIndex = out.count
                    out.append(0)
                    code = 1
                }
            }
        }
        out[codeIndex] = code
        return out
    }

    /// A frame's bytes as they were before stuffing; a malformed frame is an error.
    public static func decode(_ data: [UInt8]) throws(ChainlinkError) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            let code = Int(data[i])
            guard code != 0 else { throw ChainlinkError("a zero byte inside a COBS frame") }
            guard i + code <= data.count else { throw ChainlinkError("a COBS block runs past the end of the frame") }
            out += data[(i + 1)..<(i + code)]
            i += code
            if code < 0xFF, i < data.count { out.append(0) }
        }
        return out
    }
}

/// Chainlink frames: a protobuf message, its CRC-32 (little-endian), COBS-encoded, then 0x00.
public enum ChainlinkFrame {
    /// The bytes to write for `message` (ending with the 0x00 delimiter).
    public static func encode(_ message: ToSplitflap) -> [UInt8] { wrap(message.encoded()) }

    /// The message in one frame (the bytes between two 0x00 delimiters).
    public static func decode(_ frame: [UInt8]) throws(ChainlinkError) -> FromSplitflap {
        try FromSplitflap(decoding: unwrap(frame))
    }

    /// `payload`, its CRC-32 little-endian, COBS-encoded, then 0x00.
    static func wrap(_ payload: [UInt8]) -> [UInt8] {
        let crc = CRC32.checksum(payload)
        return COBS.encode(payload + [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8((crc >> 16) & 0xFF), UInt8(crc >> 24)]) + [0]
    }

    /// The payload of a frame whose CRC checks out.
    static func unwrap(_ frame: [UInt8]) throws(ChainlinkError) -> [UInt8] {
        let decoded = try COBS.decode(frame)
        guard decoded.count >= 4 else { throw ChainlinkError("a frame of \(decoded.count) bytes is too short for its CRC") }
        let payload = Array(decoded.dropLast(4))
        let given = decoded.suffix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let expected = CRC32.checksum(payload)
        guard given == expected else {
            throw ChainlinkError("bad CRC: the frame says \(hex(given)), its content gives \(hex(expected))")
        }
        return payload
    }

    private static func hex(_ v: UInt32) -> String { "0x" + String(v, radix: 16) }
}

/// Splits a byte stream into frames at each 0x00. A frame longer than `limit` (garbage, or a
/// plaintext line) is dropped up to its delimiter and counted, never buffered without end.
public struct ChainlinkFrameSplitter: Sendable {
    private var pending: [UInt8] = []
    private var overflowing = false
    /// The longest frame kept, in bytes.
    public let limit: Int
    /// Bytes thrown away because no frame could hold them.
    public private(set) var discardedBytes = 0

    /// A splitter that drops frames longer than `limit`.
    public init(limit: Int = 4096) { self.limit = limit }

    /// The complete frames in the bytes so far (without delimiters; empty frames skipped).
    public mutating func frames(after bytes: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        for byte in bytes {
            if byte == 0 {
                if !overflowing, !pending.isEmpty { frames.append(pending) }
                pending.removeAll(keepingCapacity: true)
                overflowing = false
            } else if overflowing {
                discardedBytes += 1
            } else if pending.count == limit {
                discardedBytes += pending.count + 1
                pending.removeAll(keepingCapacity: true)
                overflowing = true
            } else {
                pending.append(byte)
            }
        }
        return frames
    }
}
