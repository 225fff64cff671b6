import FlapCore
import FlapHardware
import FlapSimulated
import Testing

@Suite struct LEDTerminalRendererTests {
    @Test func twoPixelsACellInTrueColour() {
        var frame = PixelFrame(width: 2, height: 3)
        frame.setPixel(x: 0, y: 0, RGB(255, 0, 0))
        frame.setPixel(x: 0, y: 1, RGB(0, 0, 255))
        frame.setPixel(x: 1, y: 2, RGB(0, 255, 0))
        let lines = LEDTerminalRenderer.text(frame).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        // Upper half block: foreground the top pixel, background the one below.
        #expect(lines[0] == "\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀\u{1B}[38;2;0;0;0m\u{1B}[48;2;0;0;0m▀\u{1B}[0m")
        // An odd last row has black below it.
        #expect(lines[1] == "\u{1B}[38;2;0;0;0m\u{1B}[48;2;0;0;0m▀\u{1B}[38;2;0;255;0m\u{1B}[48;2;0;0;0m▀\u{1B}[0m")
        // Wide pictures are shown scaled down to fit.
        let wide = LEDTerminalRenderer.text(PixelFrame(width: 320, height: 4), maximumColumns: 160)
        #expect(wide.split(separator: "\n").allSatisfy { $0.filter { $0 == "▀" }.count == 160 })
    }

    @Test func theSimulatedDevicesShowWhatTheyWereSent() throws {
        let chain = SimulatedMAX7219Chain(width: 8)
        let cascade = try MAX7219Cascade(width: 8, intensity: 15)
        var image = Bitmap(width: 8, height: 8)
        image[3, 4] = true
        for transfer in cascade.initialisation() + cascade.frame(image) { _ = try chain.transfer(transfer) }
        #expect(chain.picture[3, 4] == RGB(255, 36, 24) && chain.picture[4, 3] == .black)

        let strip = SimulatedWS2812Strip(count: 8, width: 4, wiring: .serpentine)
        let encoder = try WS2812Strip(width: 4, height: 2, wiring: .serpentine)
        var colours = Array(repeating: (red: UInt8(0), green: UInt8(0), blue: UInt8(0)), count: 8)
        colours[4] = (10, 20, 30)  // (0, 1): the last LED of the chain on a serpentine
        _ = try strip.transfer(encoder.frame(colours))
        #expect(strip.leds[7] == RGB(10, 20, 30) && strip.picture[0, 1] == RGB(10, 20, 30))
    }
}
