import FlapCore

/// How a framebuffer lays out its pixels: what Linux's fixed and variable screen information
/// say (or configuration, where there is no device to ask).
public struct FramebufferFormat: Sendable, Equatable {
    /// One colour channel's place in a pixel: its lowest bit and how many bits it has.
    public struct Channel: Sendable, Equatable {
        /// Its lowest bit within the pixel.
        public var offset: Int
        /// How many bits it has.
        public var length: Int
        /// A channel at `offset`, `length` bits long.
        public init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Bits in a pixel: 16, 24 or 32.
    public var bitsPerPixel: Int
    /// Bytes from one row's start to the next (at least width × bytes per pixel).
    public var lineLength: Int
    /// Where red is.
    public var red: Channel
    /// Where green is.
    public var green: Channel
    /// Where blue is.
    public var blue: Channel

    /// A format as the device describes it; refused when its channels or lines cannot hold what it says.
    public init(
        width: Int, height: Int, bitsPerPixel: Int, lineLength: Int? = nil, red: Channel, green: Channel, blue: Channel
    ) throws(FramebufferError) {
        guard width > 0, height > 0 else { throw FramebufferError("a framebuffer of \(width)×\(height) pixels has nothing to show") }
        guard [16, 24, 32].contains(bitsPerPixel) else {
            throw FramebufferError("\(bitsPerPixel) bits per pixel is not supported (16, 24 or 32 are)")
        }
        for (name, channel) in [("red", red), ("green", green), ("blue", blue)] {
            guard (1...8).contains(channel.length), channel.offset >= 0, channel.offset + channel.length <= bitsPerPixel else {
                throw FramebufferError(
                    "the \(name) channel (offset \(channel.offset), length \(channel.length)) does not fit a \(bitsPerPixel)-bit pixel")
            }
        }
        let minimum = width * bitsPerPixel / 8
        guard (lineLength ?? minimum) >= minimum else {
            throw FramebufferError("a line of \(lineLength ?? 0) bytes cannot hold \(width) pixels of \(bitsPerPixel) bits")
        }
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.lineLength = lineLength ?? minimum
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The layouts configuration may name, as the common framebuffer drivers set them up.
    public enum Layout: String, Sendable, CaseIterable {
        /// 16-bit 5-6-5, SPI TFTs (fbtft) and the Pi's 16-bit console.
        case rgb565
        /// 24-bit, red in the top byte.
        case rgb888
        /// 32-bit, blue in the lowest byte: the Pi's HDMI framebuffer and most others.
        case xrgb8888
    }

    /// A format of one of the named layouts.
    public init(width: Int, height: Int, layout: Layout, lineLength: Int? = nil) throws(FramebufferError) {
        switch layout {
        case .rgb565:
            try self.init(
                width: width, height: height, bitsPerPixel: 16, lineLength: lineLength,
                red: Channel(offset: 11, length: 5), green: Channel(offset: 5, length: 6), blue: Channel(offset: 0, length: 5))
        case .rgb888:
            try self.init(
                width: width, height: height, bitsPerPixel: 24, lineLength: lineLength,
                red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8), blue: Channel(offset: 0, length: 8))
        case .xrgb8888:
            try self.init(
                width: width, height: height, bitsPerPixel: 32, lineLength: lineLength,
                red: Channel(offset: 16, length: 8), green: Channel(offset: 8, length: 8), blue: Channel(offset: 0, length: 8))
        }
    }

    /// Bytes in a pixel.
    public var bytesPerPixel: Int { bitsPerPixel / 8 }
    /// The bytes one whole screen takes.
    public var size: Int { lineLength * height }

    /// A colour as the pixel's value (little-endian in memory, as on every Pi).
    public func pixel(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt32 {
        func place(_ value: UInt8, _ channel: Channel) -> UInt32 { UInt32(value >> UInt8(8 - channel.length)) << UInt32(channel.offset) }
        return place(red, self.red) | place(green, self.green) | place(blue, self.blue)
    }

    /// What the screen shows for `colour`: each channel cut to its bits.
    public func shown(_ colour: RGB) -> RGB {
        let c = self.colour(of: pixel(colour.red, colour.green, colour.blue))
        return RGB(c.red, c.green, c.blue)
    }

    /// The colour of a pixel value (each channel widened back to 8 bits), for reading back.
    public func colour(of pixel: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8) {
        func take(_ channel: Channel) -> UInt8 {
            let raw = (pixel >> UInt32(channel.offset)) & ((1 << UInt32(channel.length)) - 1)
            let widened = raw << UInt32(8 - channel.length)
            return UInt8(widened | (channel.length < 8 ? widened >> UInt32(channel.length) : 0))
        }
        return (take(red), take(green), take(blue))
    }
}

/// A framebuffer format that cannot be used, and why.
public struct FramebufferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with it.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
