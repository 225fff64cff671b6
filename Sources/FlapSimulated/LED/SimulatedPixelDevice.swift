import FlapCore

/// A simulated display device whose LEDs or screen can be looked at: what the terminal draws
/// for people running flapd without the hardware.
public protocol SimulatedPixelDevice: Sendable {
    /// What the device shows now, at its brightness.
    var picture: PixelFrame { get }
}

extension SimulatedMAX7219Chain: SimulatedPixelDevice {
    /// Lit LEDs in the red of the common modules, dimmed by each chip's intensity.
    public var picture: PixelFrame {
        let chips = self.chips, image = self.image
        var frame = PixelFrame(width: width, height: height)
        let level = Double((chips.first?.intensity ?? 15) + 1) / 16
        let lit = RGB(255, 36, 24).scaled(by: 0.35 + 0.65 * level)
        for y in 0..<height {
            for x in 0..<width where image[x, y] { frame.setPixel(x: x, y: y, lit) }
        }
        return frame
    }
}

extension SimulatedWS2812Strip: SimulatedPixelDevice {
    /// What the strip shows, laid out as wired.
    public var picture: PixelFrame { picture(width: layoutWidth, wiring: layoutWiring) }
}

extension SimulatedFramebuffer: SimulatedPixelDevice {}

extension SimulatedRGBMatrix: SimulatedPixelDevice {
    /// What the matrix shows, at its brightness.
    public var picture: PixelFrame {
        let shown = self.shown, level = Double(brightness) / 100
        var frame = PixelFrame(width: shown.width, height: shown.height)
        for y in 0..<shown.height {
            for x in 0..<shown.width { frame.setPixel(x: x, y: y, shown[x, y].scaled(by: level)) }
        }
        return frame
    }
}
