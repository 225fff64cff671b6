/// A small zlib stream (RFC 1950/1951) for pictures flapd writes: fixed Huffman codes, and
/// repeats found only at distances 1 and 3 (a run of one byte, a run of one RGB colour). Board
/// pictures are flat colour, so this keeps them small without a general compressor; no listed
/// package compresses, and zlib would be a C dependency for one preview option.
public enum Deflate {
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.bytes = [0x78, 0x01]
        out.write(1, bits: 1)  // the last block
        out.write(1, bits: 2)  // fixed Huffman codes
        var i = 0
        while i < data.count {
            var best = (length: 0, distance: 0)
            for distance in [1, 3] where i >= distance {
                var length = 0
                while length < 258, i + length < data.count, data[i + length] == data[i + length - distance] { length += 1 }
                if length > best.length { best = (length, distance) }
            }
            if best.length >= 3 {
                out.writeLength(best.length)
                out.write(UInt32(best.distance == 1 ? 0 : 2), reversedBits: 5)
                i += best.length
            } else {
                out.writeLiteral(Int(data[i]))
                i += 1
            }
        }
        out.writeLiteral(256)
        out.flush()
        let adler = adler32(data)
        out.bytes += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out.bytes
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for chunk in stride(from: 0, to: data.count, by: 5552) {
            for byte in data[chunk..<min(data.count, chunk + 5552)] {
                a += UInt32(byte)
                b += a
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var count = 0

        /// `value`'s low `bits`, least significant first (extra bits, header fields).
        mutating func write(_ value: UInt32, bits: Int) {
            for k in 0..<bits { push(value >> UInt32(k) & 1) }
        }

        /// A Huffman code of `bits`, most significant first.
        mutating func write(_ code: UInt32, reversedBits bits: Int) {
            for k in (0..<bits).reversed() { push(code >> UInt32(k) & 1) }
        }

        mutating func push(_ bit: UInt32) {
            buffer |= bit << UInt32(count)
            count += 1
            if count == 8 {
                bytes.append(UInt8(buffer))
                buffer = 0
                count = 0
            }
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(buffer)) }
            buffer = 0
            count = 0
        }

        /// Literal/length symbol in the fixed code.
        mutating func writeLiteral(_ symbol: Int) {
            switch symbol {
            case 0...143: write(UInt32(0x30 + symbol), reversedBits: 8)
            case 144...255: write(UInt32(0x190 + symbol - 144), reversedBits: 9)
            case 256...279: write(UInt32(symbol - 256), reversedBits: 7)
            default: write(UInt32(0xC0 + symbol - 280), reversedBits: 8)
            }
        }

        static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

        mutating func writeLength(_ length: Int) {
            let index = Self.lengthBases.lastIndex { $0 <= length }!
            writeLiteral(257 + index)
            write(UInt32(length - Self.lengthBases[index]), bits: Self.lengthExtra[index])
        }
    }
}
