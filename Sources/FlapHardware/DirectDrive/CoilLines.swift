/// A few modules on GPIO lines through ULN2003 boards: four coil outputs per module (IN1–IN4),
/// then one hall-sensor input per module. Line indices: module m's coils are 4m…4m+3, its sensor
/// is 4 × modules + m (request the lines in that order). Hall sensors such as the A3144 pull
/// low at the magnet, hence `sensorActiveLow`.
public struct CoilLines: StepperIO {
    /// The lines: every module's four coils, then every module's sensor.
    public let lines: any GPIOLines
    /// How many modules.
    public let modules: Int
    /// Whether a sensor reads low at the magnet.
    public let sensorActiveLow: Bool
    /// The lines' name, for errors.
    public var name: String { lines.name }

    /// `modules` modules on `lines`, requested in the order the type's comment gives.
    public init(lines: any GPIOLines, modules: Int, sensorActiveLow: Bool = true) {
        self.lines = lines
        self.modules = modules
        self.sensorActiveLow = sensorActiveLow
    }

    /// Sets every coil (a nibble per module) and reads every sensor, true at the magnet.
    public func exchange(coils: [UInt8]) throws -> [Bool] {
        let levels = try lines.get()
        var outputs: [Int: Bool] = [:]
        for (m, pattern) in coils.prefix(modules).enumerated() {
            for bit in 0..<4 { outputs[4 * m + bit] = pattern & (0b1000 >> bit) != 0 }
        }
        try lines.set(outputs)
        return (0..<modules).map { m in levels[4 * modules + m] != sensorActiveLow }
    }

    /// Every coil off.
    public func release() {
        _ = try? exchange(coils: Array(repeating: 0, count: modules))
        lines.release()
    }
}
