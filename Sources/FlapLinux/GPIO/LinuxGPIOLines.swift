import FlapHardware

/// GPIO lines through the libgpiod this system has (``GPIODLibrary``): libgpiod 2 on Debian 13
/// and Raspberry Pi OS trixie, libgpiod 1 on Debian 12 and bookworm.
public final class LinuxGPIOLines: GPIOLines {
    /// The library the lines go through, for the log and `/v1/status`.
    public let library: GPIODLibrary
    private let lines: any GPIOLines

    /// The chip's name.
    public var name: String { lines.name }
    /// How many lines are held.
    public var count: Int { lines.count }

    /// Requests `outputs` and `inputs` (offsets on `chip`: a name such as `gpiochip0`, a number,
    /// a path or a chip's label) for `consumer`, through `library` (by default the one present).
    /// Line indices for ``set(_:)`` and ``get()`` are outputs first, then inputs.
    public init(chip: String, outputs: [Int], inputs: [Int], consumer: String = "flapd", library: GPIODLibrary? = GPIODLibrary.present) throws {
        guard let library else { throw HardwareError(device: chip, problem: "no GPIO library: \(GPIODLibrary.missing)") }
        guard library.isPresent else {
            throw HardwareError(device: chip, problem: "\(library.soname) is not installed", remedy: "install the package \(library.package)")
        }
        self.library = library
        switch library {
        case .v1: lines = try GPIOD1Lines(chip: chip, outputs: outputs, inputs: inputs, consumer: consumer)
        case .v2: lines = try GPIOD2Lines(chip: chip, outputs: outputs, inputs: inputs, consumer: consumer)
        }
    }

    /// Sets the lines at their offsets to `levels`, at once.
    public func set(_ levels: [Int: Bool]) throws { try lines.set(levels) }
    /// Each line's level, in order.
    public func get() throws -> [Bool] { try lines.get() }
    /// Lets the lines go.
    public func release() { lines.release() }
}
