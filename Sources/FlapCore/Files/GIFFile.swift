/// An animation as a GIF file: one palette for every frame (up to 256 colours; a picture with
/// more has each extra colour drawn as its nearest), LZW-compressed, looping. After the first
/// frame only the rectangle that changed is stored, drawn over the frame before.
public enum GIFFile {
    /// `frames` with how long each shows, in hundredths of a second (GIF's unit).
    public static func encode(_ frames: [(frame: PixelFrame, centiseconds: Int)]) -> [UInt8] {
        guard let first = frames.first?.frame else { return [] }
        var palette: [RGB] = []
        var index: [RGB: UInt8] = [:]
        var indexed: [[UInt8]] = []
        for (frame, _) in frames {
            indexed.append(
                frame.pixels.map { colour in
                    if let known = index[colour] { return known }
                    if palette.count < 256 {
                        palette.append(colour)
                        index[colour] = UInt8(palette.count - 1)
                        return UInt8(palette.count - 1)
                    }
                    let nearest = UInt8(palette.indices.min { distance(palette[$0], colour) < distance(palette[$1], colour) } ?? 0)
                    index[colour] = nearest
                    return nearest
                })
        }
        var out = Array("GIF89a".utf8)
        out += little(first.width) + little(first.height)
        out += [0xF7, 0, 0]  // a global table of 256 colours, 8 bits a channel
        for k in 0..<256 {
            let c = k < palette.count ? palette[k] : .black
            out += [c.red, c.green, c.blue]
        }
        // Loop for ever (the NETSCAPE2.0 extension every viewer reads).
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        let width = first.width
        for (k, (_, centiseconds)) in frames.enumerated() {
            let box = k == 0 ? (x: 0, y: 0, width: width, height: first.height) : changed(indexed[k - 1], indexed[k], width: width)
            // Disposal 1: the next frame is drawn over this one.
            out += [0x21, 0xF9, 0x04, 0x04] + little(max(2, centiseconds)) + [0x00, 0x00]
            out.append(0x2C)
            for field in [box.x, box.y, box.width, box.height] { out += little(field) }
            out.append(0x00)
            out.append(8)
            var region: [UInt8] = []
            region.reserveCapacity(box.width * box.height)
            for y in box.y..<(box.y + box.height) { region += indexed[k][(y * width + box.x)..<(y * width + box.x + box.width)] }
            let data = lzw(region)
            for start in stride(from: 0, to: data.count, by: 255) {
                let block = data[start..<min(data.count, start + 255)]
                out.append(UInt8(block.count))
                out += block
            }
            out.append(0)
        }
        out.append(0x3B)
        return out
    }

    /// The smallest rectangle holding every pixel that differs (one pixel when none does).
    static func changed(_ before: [UInt8], _ after: [UInt8], width: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for i in after.indices where after[i] != before[i] {
            let x = i % width, y = i / width
            minX = min(minX, x); maxX = max(maxX, x)
            minY = min(minY, y); maxY = max(maxY, y)
        }
        return maxX < 0 ? (0, 0, 1, 1) : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        return dr * dr + dg * dg + db * db
    }

    static func little(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// GIF's variable-width LZW with 8-bit symbols: codes from 9 bits, a clear code when the
    /// table is full.
    static func lzw(_ symbols: [UInt8]) -> [UInt8] {
        let clear = 256, end = 257
        var out: [UInt8] = []
        var buffer = 0, bits = 0
        var width = 9
        func emit(_ code: Int) {
            buffer |= code << bits
            bits += width
            while bits >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        var table: [Int: Int] = [:]
        var next = 258
        emit(clear)
        guard var prefix = symbols.first.map(Int.init) else {
            emit(end)
            if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
            return out
        }
        for symbol in symbols.dropFirst() {
            let key = prefix << 8 | Int(symbol)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            if next < 4096 {
                table[key] = next
                // The decoder widens its codes one entry later than the encoder adds them.
                if next == 1 << width && width < 12 { width += 1 }
                next += 1
            } else {
                emit(clear)
                table.removeAll(keepingCapacity: true)
                next = 258
                width = 9
            }
            prefix = Int(symbol)
        }
        emit(prefix)
        emit(end)
        if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }
}
