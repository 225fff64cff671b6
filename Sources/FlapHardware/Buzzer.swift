/// A buzzer or vibration motor on one GPIO output (through a transistor): pulsed on a new
/// synced pair. Line 0 of `lines` drives it, high for on.
public actor Buzzer<C: Clock<Duration>> where C: Sendable {
    private let lines: any GPIOLines
    private let clock: C
    /// How long one pulse lasts.
    public let pulseLength: Duration
    private var busy = false

    /// A buzzer on line 0 of `lines`, each pulse `pulseLength` long on `clock`.
    public init(lines: any GPIOLines, clock: C, pulseLength: Duration = .milliseconds(150)) {
        self.lines = lines
        self.clock = clock
        self.pulseLength = pulseLength
    }

    /// Two short pulses (a tap-tap a wearer feels); a pulse asked for while one runs is merged
    /// with it. A line that fails throws the driver's error; the line is left low.
    public func pulse() async throws {
        guard !busy else { return }
        busy = true
        defer { busy = false }
        for index in 0..<2 {
            if index > 0 { try? await clock.sleep(for: pulseLength, tolerance: nil) }
            try lines.set([0: true])
            do { try await clock.sleep(for: pulseLength, tolerance: nil) } catch {
                try? lines.set([0: false])
                throw error
            }
            try lines.set([0: false])
        }
    }

    /// Leaves the line low and released.
    public func release() {
        try? lines.set([0: false])
        lines.release()
    }
}
