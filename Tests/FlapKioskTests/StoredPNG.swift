import FlapCore

/// PNG with stored (uncompressed) deflate blocks: enough to look at a test's picture.
enum StoredPNG {
    static func encode(_ frame: PixelFrame) -> [UInt8] {
        PNGFile.encode(frame) { raw in
            var out: [UInt8] = [0x78, 0x01]
            var offset = 0
            repeat {
                let count = min(65_535, raw.count - offset)
                let last: UInt8 = offset + count == raw.count ? 1 : 0
                out += [last, UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff)]
                out += raw[offset..<(offset + count)]
                offset += count
            } while offset < raw.count
            var a: UInt32 = 1, b: UInt32 = 0
            for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
            let adler = b << 16 | a
            return out + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xff), UInt8(adler >> 8 & 0xff), UInt8(adler & 0xff)]
        }
    }
}
