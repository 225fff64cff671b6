import FlapCore
import FoundationEssentials
import Glibc

/// Drawing on a ``PixelFrame`` with coverage: lines, rings solid or dashed, hearts, sparkles
/// and 5×7 letters, each pixel blended with what is under it.
struct PixelPainter {
    var frame: PixelFrame

    init(width: Int, height: Int) { frame = PixelFrame(width: width, height: height) }

    mutating func blend(_ x: Int, _ y: Int, _ colour: RGB, _ alpha: Double) {
        guard alpha > 0, (0..<frame.width).contains(x), (0..<frame.height).contains(y) else { return }
        let a = min(1, alpha)
        let under = frame[x, y]
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 { UInt8((Double(top) * a + Double(bottom) * (1 - a)).rounded()) }
        frame.setPixel(x: x, y: y, RGB(mix(colour.red, under.red), mix(colour.green, under.green), mix(colour.blue, under.blue)))
    }

    mutating func rectangle(x: Int, y: Int, width: Int, height: Int, _ colour: RGB) {
        for row in y..<(y + max(0, height)) { for column in x..<(x + max(0, width)) { blend(column, row, colour, 1) } }
    }

    /// A straight line `thickness` pixels wide; `dash` (on, off) in pixels leaves gaps.
    mutating func line(
        from a: (x: Double, y: Double), to b: (x: Double, y: Double), _ colour: RGB, thickness: Int = 1,
        dash: (on: Double, off: Double)? = nil, alpha: Double = 1
    ) {
        let length = max(abs(b.x - a.x), abs(b.y - a.y))
        let steps = max(1, Int(length.rounded(.up)))
        for step in 0...steps {
            let along = Double(step) / Double(steps)
            if let dash, (along * length).truncatingRemainder(dividingBy: dash.on + dash.off) >= dash.on { continue }
            dot(a.x + (b.x - a.x) * along, a.y + (b.y - a.y) * along, colour, thickness: thickness, alpha: alpha)
        }
    }

    /// A circle's outline; dashed rings leave gaps of `dash.off` pixels after every `dash.on`.
    mutating func ring(
        centre: (x: Double, y: Double), radius: Double, _ colour: RGB, thickness: Int = 1,
        dash: (on: Double, off: Double)? = nil
    ) {
        let circumference = 2 * Double.pi * radius
        let steps = max(8, Int((circumference * 2).rounded(.up)))
        var drawn = Set<Int>()
        for step in 0..<steps {
            let along = Double(step) / Double(steps) * circumference
            if let dash, along.truncatingRemainder(dividingBy: dash.on + dash.off) >= dash.on { continue }
            let angle = along / radius
            let x = Int((centre.x + radius * cos(angle)).rounded()), y = Int((centre.y + radius * sin(angle)).rounded())
            // Half-pixel steps visit pixels twice; blending twice would make the ring uneven.
            guard drawn.insert(y &* 65_536 &+ x).inserted else { continue }
            dot(Double(x), Double(y), colour, thickness: thickness, alpha: 1)
        }
    }

    mutating func dot(_ x: Double, _ y: Double, _ colour: RGB, thickness: Int, alpha: Double) {
        let half = (thickness - 1) / 2
        let cx = Int(x.rounded()), cy = Int(y.rounded())
        for dy in -half...(thickness - 1 - half) { for dx in -half...(thickness - 1 - half) { blend(cx + dx, cy + dy, colour, alpha) } }
    }

    /// A heart `radius` pixels in half-width, centred on the point.
    mutating func heart(_ x: Double, _ y: Double, radius: Int, _ colour: RGB) {
        let cx = Int(x.rounded()), cy = Int(y.rounded())
        if radius <= 2 {
            // Too small for the curve: the 5×5 heart of LED signs.
            let rows = [".#.#.", "#####", "#####", ".###.", "..#.."]
            for (r, row) in rows.enumerated() {
                for (c, mark) in row.enumerated() where mark == "#" { blend(cx - 2 + c, cy - 2 + r, colour, 1) }
            }
            return
        }
        // (u² + v² − 1)³ − u²v³ ≤ 0: the heart curve, v up, about 2.3 units wide.
        let scale = 1.15 / Double(radius)
        for py in (cy - radius - 1)...(cy + radius + 1) {
            for px in (cx - radius - 1)...(cx + radius + 1) {
                var inside = 0
                for (ox, oy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                    let u = (Double(px) + ox - 0.5 - x) * scale, v = -(Double(py) + oy - 0.5 - y) * scale + 0.15
                    let k = u * u + v * v - 1
                    if k * k * k - u * u * v * v * v <= 0 { inside += 1 }
                }
                blend(px, py, colour, Double(inside) / 4)
            }
        }
    }

    /// A four-pointed sparkle of `size` pixels' reach, its rays `thickness` wide.
    mutating func sparkle(_ x: Double, _ y: Double, size: Int, thickness: Int, _ colour: RGB, alpha: Double) {
        dot(x, y, colour, thickness: thickness + 1, alpha: alpha)
        for reach in 1...max(1, size) {
            let fade = alpha * (1 - Double(reach - 1) / Double(max(1, size)))
            let width = reach > size / 2 ? max(1, thickness - 1) : thickness
            for (dx, dy) in [(reach, 0), (-reach, 0), (0, reach), (0, -reach)] {
                dot(x + Double(dx), y + Double(dy), colour, thickness: width, alpha: fade)
            }
        }
    }

    /// Text in the 5×7 font, each font pixel `scale` pixels square, from its top left.
    mutating func text(_ text: String, x: Int, y: Int, scale: Int, _ colour: RGB) {
        var left = x
        for character in text.uppercased() {
            if let glyph = GlyphFont.small.glyph(character) {
                for (index, lit) in glyph.enumerated() where lit {
                    rectangle(x: left + index % Font5x7.width * scale, y: y + index / Font5x7.width * scale, width: scale, height: scale, colour)
                }
            }
            left += (Font5x7.width + 1) * scale
        }
    }

    static func textWidth(_ text: String, scale: Int) -> Int { text.count * (Font5x7.width + 1) * scale - scale }
}
