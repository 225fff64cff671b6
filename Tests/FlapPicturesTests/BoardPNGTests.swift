import CompressNIO
import FlapCore
import FlapPictures
import NIOCore
import Testing

/// The PNG files flapd draws: what a browser or an image library needs to read them.
@Suite struct BoardPNGTests {
    @Test func aBoardIsAValidPNGOfTheRendererSize() throws {
        let board = try Board(codeRows: [[8, 5, 12, 12, 15, 0], [0, 63, 64, 65, 66, 0]])
        let png = try BoardPNG.encode(board)
        let renderer = try BoardPNG.renderer(for: board.size)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Self.bigEndian(png, at: 16) == renderer.width)
        #expect(Self.bigEndian(png, at: 20) == renderer.height)
        // The pixels, inflated again, are a filter byte and three bytes per pixel on each row.
        let inflated = try Self.inflatedPixels(of: png)
        #expect(inflated.count == renderer.height * (1 + 3 * renderer.width))
    }

    @Test func aWidthGivesAPictureThatWide() throws {
        let board = Board(size: .flagship)
        for width in [40, 400, 1000] {
            let png = try BoardPNG.encode(board, width: width)
            #expect(Self.bigEndian(png, at: 16) == width)
        }
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The IDAT chunk's zlib stream, inflated.
    static func inflatedPixels(of png: [UInt8]) throws -> [UInt8] {
        var offset = 8, stream: [UInt8] = []
        while offset + 8 <= png.count {
            let length = bigEndian(png, at: offset)
            let kind = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            if kind == "IDAT" { stream += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        var buffer = ByteBuffer(bytes: stream)
        var inflated = try buffer.decompress(with: .zlib())
        return inflated.readBytes(length: inflated.readableBytes) ?? []
    }
}
