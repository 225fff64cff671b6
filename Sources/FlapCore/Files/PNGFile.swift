/// A picture as a PNG file: 8-bit RGB, each row filtered against the one above. The caller
/// supplies the zlib compressor (FlapCore links no C library).
public enum PNGFile {
    /// `frame` as PNG bytes, its image data compressed by `zlib`.
    public static func encode(_ frame: PixelFrame, zlib: ([UInt8]) throws -> [UInt8]) rethrows -> [UInt8] {
        let rowBytes = frame.width * 3
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * frame.height)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<frame.height {
            var row = [UInt8](repeating: 0, count: rowBytes)
            for x in 0..<frame.width {
                let c = frame[x, y]
                row[3 * x] = c.red
                row[3 * x + 1] = c.green
                row[3 * x + 2] = c.blue
            }
            // Filter "Up": a row like the one above becomes zeros, which compress to almost nothing.
            raw.append(2)
            for k in 0..<rowBytes { raw.append(row[k] &- previous[k]) }
            previous = row
        }
        var header: [UInt8] = []
        header += bigEndian(UInt32(frame.width)) + bigEndian(UInt32(frame.height))
        header += [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", try zlib(raw)) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(CRC32.checksum(typed))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
