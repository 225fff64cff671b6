import FlapHardware
import Synchronization

/// Chainlink Driver boards with their modules, behind a simulated SPI device: each transfer
/// clocks the sensor byte of every board out (as the 74HC165s loaded them at the latch) and
/// the coil bytes in, which drive each module's simulated mechanism. Faults are injected per
/// module: lost steps, a sensor stuck on, a sensor that never fires.
public final class SimulatedShiftRegisterChain: SPIDevice {
    /// Its name.
    public let name: String
    /// Its clock.
    public let speedHz = 4_000_000
    /// How many modules it drives.
    public let modules: Int
    private let layout: ShiftRegisterChain
    private let state: Mutex<State>

    struct State {
        var mechanisms: [SimulatedMechanism]
        var transfers = 0
        var closed = false
        var failing = false
    }

    /// `modules` modules, rotors at `rotorSteps` (near home by default).
    public init(modules: Int, rotorSteps: [Int]? = nil, name: String = "simulated SPI chain") {
        self.name = name
        self.modules = modules
        let rotors = rotorSteps ?? (0..<modules).map { ($0 * 617 + 301) % 2048 }
        state = Mutex(State(mechanisms: rotors.map { SimulatedMechanism(rotorStep: $0) }))
        layout = ShiftRegisterChain(spi: NoSPI(), modules: modules)
    }

    /// Shifts `bytes` in (coil patterns) and the sensors' bits out, stepping each rotor whose pattern changed.
    public func transfer(_ bytes: [UInt8]) throws -> [UInt8] {
        try state.withLock { s in
            guard !s.closed else { throw HardwareError(device: name, problem: "closed") }
            guard !s.failing else { throw HardwareError(device: name, problem: "transfer failed: Input/output error") }
            guard bytes.count == layout.boards * 4 else {
                throw HardwareError(
                    device: name, problem: "a transfer of \(bytes.count) bytes; this chain of \(layout.boards) boards takes \(layout.boards * 4)")
            }
            var sensorBytes = [UInt8](repeating: 0, count: bytes.count)
            for (i, mechanism) in s.mechanisms.enumerated() where mechanism.sensor { sensorBytes[i / 6] |= 1 << (i % 6) }
            // Loopback bits read back as wired (both set).
            for board in 0..<layout.boards { sensorBytes[board] |= 0b1100_0000 }
            for i in s.mechanisms.indices { s.mechanisms[i].drive(coils(of: i, in: bytes)) }
            s.transfers += 1
            return sensorBytes
        }
    }

    /// Closes it.
    public func close() { state.withLock { $0.closed = true } }

    /// Module `i`'s coil pattern in a frame, as the boards wire it.
    func coils(of i: Int, in frame: [UInt8]) -> UInt8 {
        let byte = frame[frame.count - 1 - (i / 6) * 4 - [0, 0, 1, 2, 3, 3][i % 6]]
        return i % 2 == 0 ? byte & 0x0F : byte >> 4
    }

    /// Module `i`'s mechanism as it is now.
    public func mechanism(_ i: Int) -> SimulatedMechanism { state.withLock { $0.mechanisms[i] } }
    /// Transfers made.
    public var transfers: Int { state.withLock { $0.transfers } }
    /// Gives `module`'s hall sensor `fault`.
    public func setSensorFault(_ fault: SimulatedMechanism.SensorFault, module: Int) { state.withLock { $0.mechanisms[module].sensorFault = fault } }
    /// Every transfer fails while `true` (a loose ribbon cable, a dead board).
    public func setFailing(_ failing: Bool) { state.withLock { $0.failing = failing } }
    /// Makes `module` lose every `n`-th step (nil: none).
    public func setLostSteps(every n: Int?, module: Int) { state.withLock { $0.mechanisms[module].losesEveryNthStep = n } }

    /// A stand-in so the chain can use the layout's arithmetic without a device.
    private struct NoSPI: SPIDevice {
        let name = "none"
        let speedHz = 0
        func transfer(_ bytes: [UInt8]) throws -> [UInt8] { bytes }
        func close() {}
    }
}
