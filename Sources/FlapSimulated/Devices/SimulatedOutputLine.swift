import FlapHardware
import Synchronization

/// One GPIO output line with nothing behind it but a record of its levels: the twin of a
/// buzzer's line, for tests and `device = "simulated"`.
public final class SimulatedOutputLine: GPIOLines {
    /// Its name.
    public let name = "simulated output line"
    /// One line.
    public let count = 1
    private let state = Mutex<(levels: [Bool], released: Bool)>(([false], false))

    /// A line low, never set.
    public init() {}

    /// Sets the line, keeping every level set.
    public func set(_ levels: [Int: Bool]) throws {
        try state.withLock { s in
            guard !s.released else { throw HardwareError(device: name, problem: "released") }
            if let level = levels[0], level != s.levels.last { s.levels.append(level) }
        }
    }

    /// The line's last level.
    public func get() throws -> [Bool] { state.withLock { [$0.levels.last ?? false] } }

    /// Lets the line go.
    public func release() { state.withLock { $0.released = true } }

    /// Every level the line has had, from low at the start.
    public var levels: [Bool] { state.withLock { $0.levels } }
    /// Times it went high.
    public var pulses: Int { state.withLock { s in zip(s.levels, s.levels.dropFirst()).filter { !$0 && $1 }.count } }
}
