/// A one-bit image: `true` is a lit LED (black in a PBM file).
public struct Bitmap: Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    private var bits: [Bool]

    /// A dark image `width` × `height`.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "a bitmap has a size")
        self.width = width
        self.height = height
        bits = Array(repeating: false, count: width * height)
    }

    /// Pixel at column `x`, row `y` (0, 0 top left); outside the bitmap reads as unlit and
    /// writes are dropped, so drawing can run off the edge.
    public subscript(x: Int, y: Int) -> Bool {
        get { (0..<width).contains(x) && (0..<height).contains(y) ? bits[y * width + x] : false }
        set { if (0..<width).contains(x) && (0..<height).contains(y) { bits[y * width + x] = newValue } }
    }

    /// Reads a PBM file, plain (P1) or raw (P4); errors say what is wrong and where.
    public init(pbm data: [UInt8]) throws(BitmapError) {
        var reader = PBMReader(data)
        let magic = try reader.token("the magic number")
        guard magic == "P1" || magic == "P4" else {
            throw BitmapError("not a PBM file: it starts with \(magic.debugDescription), not P1 or P4")
        }
        let width = try reader.number("the width"), height = try reader.number("the height")
        guard width > 0, height > 0, width * height <= 16_777_216 else {
            throw BitmapError("a PBM of \(width)×\(height) pixels is not one to draw")
        }
        self.init(width: width, height: height)
        if magic == "P1" {
            for y in 0..<height {
                for x in 0..<width { self[x, y] = try reader.plainBit(x: x, y: y) }
            }
        } else {
            try reader.skipOneWhitespace()
            let rowBytes = (width + 7) / 8
            let raster = Array(try reader.bytes(rowBytes * height))
            for y in 0..<height {
                for x in 0..<width { self[x, y] = raster[y * rowBytes + x / 8] & (0x80 >> UInt8(x % 8)) != 0 }
            }
        }
    }
}

/// A bitmap file that cannot be read, and why.
public struct BitmapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

/// The PBM header's tokens (with # comments) and its raster.
struct PBMReader {
    let data: [UInt8]
    var index = 0

    init(_ data: [UInt8]) { self.data = data }

    mutating func skipSpaceAndComments() {
        while index < data.count {
            if data[index] == UInt8(ascii: "#") {
                while index < data.count, data[index] != 10 { index += 1 }
            } else if [9, 10, 13, 32].contains(data[index]) {
                index += 1
            } else {
                return
            }
        }
    }

    mutating func token(_ what: String) throws(BitmapError) -> String {
        skipSpaceAndComments()
        let start = index
        while index < data.count, ![9, 10, 13, 32].contains(data[index]) { index += 1 }
        guard index > start else { throw BitmapError("the file ends before \(what)") }
        return String(decoding: data[start..<index], as: UTF8.self)
    }

    mutating func number(_ what: String) throws(BitmapError) -> Int {
        let text = try token(what)
        guard let value = Int(text) else { throw BitmapError("\(what) is \(text.debugDescription), not a number") }
        return value
    }

    mutating func plainBit(x: Int, y: Int) throws(BitmapError) -> Bool {
        skipSpaceAndComments()
        guard index < data.count else { throw BitmapError("the file ends at row \(y + 1), column \(x + 1) of the image") }
        defer { index += 1 }
        switch data[index] {
        case UInt8(ascii: "0"): return false
        case UInt8(ascii: "1"): return true
        default:
            throw BitmapError(
                "row \(y + 1), column \(x + 1) of the image: \(String(decoding: [data[index]], as: UTF8.self).debugDescription) is not 0 or 1")
        }
    }

    mutating func skipOneWhitespace() throws(BitmapError) {
        guard index < data.count else { throw BitmapError("the file ends before its raster") }
        index += 1
    }

    mutating func bytes(_ count: Int) throws(BitmapError) -> ArraySlice<UInt8> {
        guard data.count - index >= count else {
            throw BitmapError("the raster holds \(data.count - index) bytes; the header promises \(count)")
        }
        defer { index += count }
        return data[index..<(index + count)]
    }
}
