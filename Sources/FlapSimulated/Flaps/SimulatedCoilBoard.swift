import FlapHardware
import Synchronization

/// Modules on ULN2003 boards behind simulated GPIO lines, wired as ``CoilLines`` expects (four
/// coils per module, then one active-low hall sensor per module). The coils drive simulated
/// mechanisms whenever the lines are set.
public final class SimulatedCoilBoard: GPIOLines {
    public let name = "simulated gpiochip"
    public let modules: Int
    public var count: Int { modules * 5 }
    private let state: Mutex<(levels: [Bool], mechanisms: [SimulatedMechanism], released: Bool)>

    public init(modules: Int, rotorSteps: [Int]? = nil) {
        self.modules = modules
        let rotors = rotorSteps ?? Array(repeating: 2030, count: modules)
        state = Mutex((Array(repeating: false, count: modules * 4), rotors.map { SimulatedMechanism(rotorStep: $0) }, false))
    }

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

    public func get() throws -> [Bool] {
        try state.withLock { s in
            guard !s.released else { throw HardwareError(device: name, problem: "released") }
            return s.levels + s.mechanisms.map { !$0.sensor }
        }
    }

    public func release() {
        state.withLock {
            $0.released = true; $0.levels = Array(repeating: false, count: $0.levels.count)
        }
    }

    public func mechanism(_ m: Int) -> SimulatedMechanism { state.withLock { $0.mechanisms[m] } }
    public func setSensorFault(_ fault: SimulatedMechanism.SensorFault, module: Int) { state.withLock { $0.mechanisms[module].sensorFault = fault } }
}
