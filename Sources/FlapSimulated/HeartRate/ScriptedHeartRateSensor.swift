import FlapHardware
import FlapHeartRate

/// A heart-rate source that says exactly what it is given, in order, then waits to be
/// stopped: for testing what consumes heart rates (the hub, the rooms) event by event.
public struct ScriptedHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// Its name.
    public let name: String
    private let script: [HeartRateEvent<C.Instant>]
    private let pause: Duration
    private let clock: C

    /// Emits `script`, `pause` apart on `clock`.
    public init(name: String = "scripted", script: [HeartRateEvent<C.Instant>], pause: Duration = .zero, clock: C) {
        self.name = name
        self.script = script
        self.pause = pause
        self.clock = clock
    }

    /// Plays the script, each event after its pause.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        for event in script {
            guard !Task.isCancelled else { return }
            emit(event)
            if pause > .zero { try? await clock.sleep(for: pause, tolerance: nil) }
        }
        while !Task.isCancelled { try? await clock.sleep(for: .seconds(3600), tolerance: nil) }
    }
}
