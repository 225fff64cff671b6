import CLinuxDevices
import FlapHardware

#if canImport(Glibc)
    import Glibc
#endif

/// rpi-rgb-led-matrix's C API from `librgbmatrix.so.1`, loaded when a HUB75 panel is
/// configured: the library is not packaged by Debian and most boards never need it, so flapd
/// neither links it nor fails without it until it is asked for.
public final class LibRGBMatrix: RGBMatrixAPI {
    /// The library it opens.
    public static let libraryName = "librgbmatrix.so.1"

    private typealias Create = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    private typealias Delete = @convention(c) (OpaquePointer?) -> Void
    private typealias Offscreen = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias Swap = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    private typealias SetPixel = @convention(c) (OpaquePointer?, Int32, Int32, UInt8, UInt8, UInt8) -> Void
    private typealias Clear = @convention(c) (OpaquePointer?) -> Void
    private typealias Brightness = @convention(c) (OpaquePointer?, UInt8) -> Void

    private let handle: UnsafeMutableRawPointer
    private let createMatrix: Create
    private let deleteMatrix: Delete
    private let offscreenCanvas: Offscreen
    private let swapCanvas: Swap
    private let setCanvasPixel: SetPixel
    private let clearCanvas: Clear
    private let setMatrixBrightness: Brightness
    private var matrix: OpaquePointer?
    private var canvas: OpaquePointer?
    private var strings: [UnsafeMutablePointer<CChar>] = []

    /// Loads the library (from the loader's path, or `path`); throws naming it when it is not
    /// there or lacks a function flapd needs.
    public init(path: String = LibRGBMatrix.libraryName) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw HardwareError(
                device: "HUB75 matrix", problem: "\(Self.libraryName) could not be loaded (\(reason))",
                remedy: "build and install rpi-rgb-led-matrix (make -C lib; copy lib/librgbmatrix.so.1 to /usr/local/lib; ldconfig)")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let pointer = dlsym(handle, name) else {
                dlclose(handle)
                throw HardwareError(device: "HUB75 matrix", problem: "\(path) has no \(name): not a build of rpi-rgb-led-matrix flapd can use")
            }
            return unsafeBitCast(pointer, to: type)
        }
        // The variant with runtime options: without them the library drops its privileges to the
        // `daemon` user after start-up, and flapd could no longer write its own state.
        createMatrix = try symbol("led_matrix_create_from_options_and_rt_options", as: Create.self)
        deleteMatrix = try symbol("led_matrix_delete", as: Delete.self)
        offscreenCanvas = try symbol("led_matrix_create_offscreen_canvas", as: Offscreen.self)
        swapCanvas = try symbol("led_matrix_swap_on_vsync", as: Swap.self)
        setCanvasPixel = try symbol("led_canvas_set_pixel", as: SetPixel.self)
        clearCanvas = try symbol("led_canvas_clear", as: Clear.self)
        setMatrixBrightness = try symbol("led_matrix_set_brightness", as: Brightness.self)
        self.handle = handle
    }

    /// Opens the matrix as `options` say; its size in pixels.
    public func create(_ options: RGBMatrixOptions) throws -> (width: Int, height: Int) {
        var c = vw_rgb_matrix_options()
        memset(&c, 0, MemoryLayout<vw_rgb_matrix_options>.size)
        guard let mapping = strdup(options.hardwareMapping) else {
            throw HardwareError(device: "rpi-rgb-led-matrix", problem: "out of memory for the hardware mapping's name")
        }
        strings.append(mapping)
        c.hardware_mapping = UnsafePointer(mapping)
        c.rows = Int32(options.rows)
        c.cols = Int32(options.columns)
        c.chain_length = Int32(options.chain)
        c.parallel = Int32(options.parallel)
        c.brightness = Int32(options.brightness)
        c.pwm_bits = Int32(options.pwmBits)
        var runtime = vw_rgb_matrix_runtime_options()
        memset(&runtime, 0, MemoryLayout<vw_rgb_matrix_runtime_options>.size)
        runtime.gpio_slowdown = Int32(options.gpioSlowdown)
        runtime.daemon = 0
        runtime.drop_privileges = 0
        runtime.do_gpio_init = true
        let created = withUnsafeMutablePointer(to: &c) { c in
            withUnsafeMutablePointer(to: &runtime) { r in createMatrix(UnsafeMutableRawPointer(c), UnsafeMutableRawPointer(r)) }
        }
        guard let matrix = created else {
            throw HardwareError(
                device: "HUB75 matrix",
                problem: "rpi-rgb-led-matrix refused the options (rows \(options.rows), cols \(options.columns), "
                    + "chain \(options.chain), parallel \(options.parallel), mapping \(options.hardwareMapping))",
                remedy: "it needs root for the GPIO pins; see its message above")
        }
        self.matrix = matrix
        canvas = offscreenCanvas(matrix)
        return (options.width, options.height)
    }

    /// Sets one pixel of the canvas being drawn.
    public func setPixel(x: Int, y: Int, red: UInt8, green: UInt8, blue: UInt8) {
        setCanvasPixel(canvas, Int32(x), Int32(y), red, green, blue)
    }

    /// Shows the canvas drawn at the next refresh, and draws on the other.
    public func swapOnVSync() { canvas = swapCanvas(matrix, canvas) }
    /// Sets the brightness, 1 to 100 %.
    public func setBrightness(_ percent: Int) { setMatrixBrightness(matrix, UInt8(max(1, min(100, percent)))) }
    /// Clears the canvas being drawn.
    public func clear() { clearCanvas(canvas) }

    /// Closes the matrix, leaving it dark.
    public func delete() {
        if let matrix { deleteMatrix(matrix) }
        matrix = nil
        canvas = nil
    }

    deinit {
        delete()
        strings.forEach { free($0) }
        dlclose(handle)
    }
}
