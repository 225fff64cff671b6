/// A 24-bit colour.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var red: UInt8
    /// Green, 0–255.
    public var green: UInt8
    /// Blue, 0–255.
    public var blue: UInt8

    /// The colour of these channels.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A Vestaboard colour chip's colour.
    public init(_ colour: Colour) {
        let rgb = colour.rgb
        self.init(rgb.red, rgb.green, rgb.blue)
    }

    /// All channels off.
    public static let black = RGB(0, 0, 0)
    /// All channels full.
    public static let white = RGB(255, 255, 255)

    /// Whether any channel is lit: what a one-colour LED shows.
    public var isLit: Bool { red | green | blue != 0 }

    /// Each channel times `factor` (0…1), rounded.
    public func scaled(by factor: Double) -> RGB {
        let f = max(0, min(1, factor))
        func scale(_ v: UInt8) -> UInt8 { UInt8((Double(v) * f).rounded()) }
        return RGB(scale(red), scale(green), scale(blue))
    }

    /// `#rrggbb`, as configuration writes colours.
    public var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Reads `#rrggbb` (or `rrggbb`); nil when it is not one.
    public init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self.init(UInt8(value >> 16), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}
