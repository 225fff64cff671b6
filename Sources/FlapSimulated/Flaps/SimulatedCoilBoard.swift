import FlapHardware
import Synchronization

/// Modules on ULN2003 boards behind simulated GPIO lines, wired as ``CoilLines`` expects (four
/// coils per module, then one active-low hall sensor per module). The coils drive simulated
/// mechanisms whenever the lines are set.
public final class SimulatedCoilBoard: GPIOLines {
    /// Its name.
    public let name = "simulated gpiochip"
    /// How many modules it drives.
    public let modules: Int
    /// Lines: four coils and a sensor a module.
    public var count: Int { modules * 5 }
    private let state: Mutex<(levels: [Bool], mechanisms: [SimulatedMechanism], released: Bool)>

    /// A board of `modules`, their rotors at `rotorSteps` (nil: all at the magnet).
    public init(modules: Int, rotorSteps: [Int]? = nil) {
        self.modules = modules
        let rotors = rotorSteps ?? Array(repeating: 2030, count: modules)
        state = Mutex((Array(repeating: false, count: modules * 4), rotors.map { SimulatedMechanism(rotorStep: $0) }, false))
    }

    /// Drives the coil lines, each new pattern stepping its rotor.
    public func set(_ levels: [Int: Bool]) throws {
        try state.withLock { s in
            guard !s.released else { throw HardwareError(device: name, problem: "released") }
            for (index, level) in levels where index < modules * 4 { s.levels[index] = level }
            for m in 0..<modules {
                let pattern = (0..<4).reduce(UInt8(0)) { $0 | (s.levels[4 * m + $1] ? 0b1000 >> UInt8($1) : 0) }
                s.mechanisms[m].drive(pattern)
            }
        }
    }

    /// Every line's level, the sensors' as their magnets make them.
    public func get() throws -> [Bool] {
        try state.withLock { s in
            guard !s.released else { throw HardwareError(device: name, problem: "released") }
            return s.levels + s.mechanisms.map { !$0.sensor }
        }
    }

    /// Lets the lines go (coils off).
    public func release() {
        state.withLock {
            $0.released = true; $0.levels = Array(repeating: false, count: $0.levels.count)
        }
    }

    /// Module `m`'s mechanism as it is now.
    public func mechanism(_ m: Int) -> SimulatedMechanism { state.withLock { $0.mechanisms[m] } }
    /// Gives `module`'s hall sensor `fault`.
    public func setSensorFault(_ fault: SimulatedMechanism.SensorFault, module: Int) { state.withLock { $0.mechanisms[module].sensorFault = fault } }
}
