import FlapCore
import FlapHardware
import Synchronization

/// A framebuffer's memory held in this process: what a screen would scan out.
public final class SimulatedFramebuffer: FramebufferMemory {
    /// Its name.
    public let name: String
    /// Its pixels' layout.
    public let format: FramebufferFormat
    private let memory: Mutex<[UInt8]>

    /// Memory of `format`, all dark.
    public init(format: FramebufferFormat, name: String = "simulated framebuffer") {
        self.name = name
        self.format = format
        memory = Mutex(Array(repeating: 0, count: format.size))
    }

    /// Writes `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        guard offset >= 0, offset + bytes.count <= format.size else {
            throw HardwareError(device: name, problem: "a write of \(bytes.count) bytes at \(offset) runs past the \(format.size)-byte screen")
        }
        memory.withLock { $0.replaceSubrange(offset..<(offset + bytes.count), with: bytes) }
    }

    /// Writes the byte ranges `spans` of `screen`.
    public func copy(_ spans: [Range<Int>], of screen: [UInt8]) throws {
        guard screen.count <= format.size else {
            throw HardwareError(device: name, problem: "a screen of \(screen.count) bytes is larger than the \(format.size)-byte memory")
        }
        memory.withLock { memory in
            memory.withUnsafeMutableBytes { memory in
                screen.withUnsafeBytes { screen in
                    guard let target = memory.baseAddress, let source = screen.baseAddress else { return }
                    for span in spans.map({ $0.clamped(to: 0..<screen.count) }) where !span.isEmpty {
                        (target + span.lowerBound).copyMemory(from: source + span.lowerBound, byteCount: span.count)
                    }
                }
            }
        }
    }

    /// The memory as it is.
    public var bytes: [UInt8] { memory.withLock { $0 } }

    /// The screen as a picture, read back through the pixel format.
    public var picture: PixelFrame { Self.picture(of: bytes, format: format) }

    /// The picture `bytes` hold in `format`.
    public static func picture(of bytes: [UInt8], format: FramebufferFormat) -> PixelFrame {
        var frame = PixelFrame(width: format.width, height: format.height)
        for y in 0..<format.height {
            for x in 0..<format.width {
                let at = y * format.lineLength + x * format.bytesPerPixel
                var value: UInt32 = 0
                for k in 0..<format.bytesPerPixel { value |= UInt32(bytes[at + k]) << UInt32(8 * k) }
                let c = format.colour(of: value)
                frame.setPixel(x: x, y: y, RGB(c.red, c.green, c.blue))
            }
        }
        return frame
    }
}
