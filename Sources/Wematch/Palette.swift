/// The rainbow members are drawn in: 20 hues around the colour wheel, bright enough for an LED
/// matrix and told apart on a screen.
public enum Palette {
    /// The colours as `#rrggbb`, in the order members get them.
    public static let colours: [String] = (0..<20).map { index in
        // Hue steps of 7/20 of a turn: neighbours in joining order get far-apart colours.
        hex(hue: Double(index * 7 % 20) / 20, saturation: 0.65, value: 1)
    }

    /// The first palette colour no member of the room uses, else the least used.
    public static func colour(avoiding used: [String]) -> String {
        let counts = Dictionary(used.map { ($0.lowercased(), 1) }, uniquingKeysWith: +)
        return colours.min { (counts[$0] ?? 0) < (counts[$1] ?? 0) } ?? colours[0]
    }

    /// `#rrggbb` → (r, g, b) 0–255, or nil.
    public static func rgb(_ hex: String) -> (UInt8, UInt8, UInt8)? {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    static func hex(hue: Double, saturation: Double, value: Double) -> String {
        let sector = hue * 6
        let fraction = sector - sector.rounded(.down)
        let p = value * (1 - saturation), q = value * (1 - saturation * fraction), t = value * (1 - saturation * (1 - fraction))
        let (r, g, b): (Double, Double, Double) =
            switch Int(sector) % 6 {
            case 0: (value, t, p)
            case 1: (q, value, p)
            case 2: (p, value, t)
            case 3: (p, q, value)
            case 4: (t, p, value)
            default: (value, p, q)
            }
        func byte(_ x: Double) -> String {
            let v = Int((x * 255).rounded())
            return String(v, radix: 16).count == 1 ? "0" + String(v, radix: 16) : String(v, radix: 16)
        }
        return "#" + byte(r) + byte(g) + byte(b)
    }
}
