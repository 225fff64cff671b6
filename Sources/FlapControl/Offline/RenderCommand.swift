import ArgumentParser
import FlapCore
import FlapHardware
import FoundationEssentials

/// `flapctl render`: the exact bytes an LED device would receive for an image, for wiring checks
/// and tests. A PBM's 1 bits are lit LEDs.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Write the bytes an LED device would receive for a PBM image.",
        discussion: HelpExamples.discussion("render"))

    @Option(help: "The device: max7219 or ws2812.")
    var device: String

    @Option(help: "MAX7219 blocks in a single row (the image is then CASCADE×8 wide, 8 high).")
    var cascade: Int?

    @Option(help: "Image width in pixels (a multiple of 8 for max7219; default: the PBM's).")
    var width: Int?

    @Option(help: "Image height in pixels (default: the PBM's).")
    var height: Int?

    @Option(help: "How each 8×8 block is turned: 0, 90, -90 or 180 (luma.led_matrix's block_orientation; write --orientation=-90).")
    var orientation = 0

    @Flag(help: "The blocks are wired in reverse order (luma's blocks_arranged_in_reverse_order).")
    var reverseBlocks = false

    @Option(help: "MAX7219 intensity, 0 to 15.")
    var intensity = 7

    @Option(help: "WS2812 brightness, 0 to 255 (lit pixels are white at this level).")
    var brightness = 255

    @Option(help: "WS2812 matrix wiring: serpentine or progressive.")
    var wiring = "serpentine"

    @Flag(help: "Start with the device's initialisation sequence.")
    var withInit = false

    @Option(help: "The PBM image (P1 or P4).")
    var bitmap: String

    @Option(help: "Where to write the bytes (- for standard output).")
    var out: String

    func run() throws {
        guard device == "max7219" || device == "ws2812" else {
            throw InputError("--device must be max7219 or ws2812, not \(device.debugDescription)")
        }
        guard let data = FileManager.default.contents(atPath: bitmap) else { throw InputError("cannot read \(bitmap)") }
        let image: Bitmap
        do { image = try Bitmap(pbm: Array(data)) } catch { throw InputError("\(bitmap): \(error)") }
        let w = cascade.map { $0 * 8 } ?? width ?? image.width
        let h = cascade != nil ? 8 : height ?? image.height
        guard image.width == w, image.height == h else {
            throw InputError("\(bitmap) is \(image.width)×\(image.height); the device is \(w)×\(h)")
        }
        let bytes: [UInt8]
        do {
            if device == "ws2812" {
                guard let wiring = WS2812Strip.Wiring(rawValue: wiring) else { throw InputError("--wiring must be serpentine or progressive") }
                bytes = try WS2812Strip(width: w, height: h, wiring: wiring, brightness: brightness).frame(image)
            } else {
                let chain = try MAX7219Cascade(width: w, height: h, blockOrientation: orientation, reverseBlocks: reverseBlocks, intensity: intensity)
                bytes = ((withInit ? chain.initialisation() : []) + chain.frame(image)).flatMap { $0 }
            }
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(error)")
        }
        if out == "-" {
            StandardStream.writeOutput(bytes: bytes)
        } else {
            guard FileManager.default.createFile(atPath: out, contents: Data(bytes)) else { throw InputError("cannot write \(out)") }
        }
    }
}
