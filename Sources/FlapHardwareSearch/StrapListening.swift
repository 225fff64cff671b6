import FlapHeartRate
import Synchronization

/// Heart-rate straps found by listening: a heart-rate source (Bluetooth LE through BlueZ on a
/// kiosk) runs for a window, and each strap it hears is listed with where it stands and its last
/// reading, the proof that it is a strap and that it is worn. Nothing is kept after the window.
public enum StrapListening {
    /// How long a search listens unless told: straps advertise about once a second.
    public static let window: Duration = .seconds(10)

    /// Starts the sensor's task: a plain task, or one a simulated clock keeps time for.
    public typealias TaskStarter = @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, any Error>

    /// Runs `sensor` on `clock` for `window` (in a task `start` makes), then stops it; what it heard.
    public static func straps<S: HeartRateSensor, C: Clock>(
        _ sensor: S, clock: C, window: Duration = window, start: TaskStarter = { body in Task { await body() } }
    ) async -> StrapsFound where C.Duration == Duration {
        let heard = Mutex(StrapsFound(source: sensor.name, state: "searching", straps: []))
        let listening = start { await sensor.run { event in heard.withLock { $0.take(event) } } }
        try? await clock.sleep(for: window, tolerance: nil)
        listening.cancel()
        _ = await listening.result
        return heard.withLock { $0 }
    }
}

/// What a listening window heard.
public struct StrapsFound: Sendable, Equatable, Encodable {
    /// The source, as a person knows it (`ble (first adapter)`).
    public var source: String
    /// Where the source itself stood last (`searching`, or `lost: …` with what to do).
    public var state: String
    /// Each strap heard, by its address.
    public var straps: [StrapFound]

    mutating func take<Instant>(_ event: HeartRateEvent<Instant>) {
        switch event {
        case .status(let status):
            guard let strap = status.strap else {
                state = status.state.description
                return
            }
            self[strap].state = status.state.description
        case .sample(let sample):
            self[sample.strap].bpm = sample.bpm
            if self[sample.strap].state == "searching" { self[sample.strap].state = "connected" }
        case .notice:
            break
        }
    }

    private subscript(strap: StrapIdentity) -> StrapFound {
        get { straps.first { $0.strap == strap.description } ?? StrapFound(strap: strap.description, state: "searching") }
        set {
            if let index = straps.firstIndex(where: { $0.strap == strap.description }) { straps[index] = newValue } else { straps.append(newValue) }
        }
    }
}

/// One strap a listening window heard.
public struct StrapFound: Sendable, Equatable, Encodable {
    /// `ble:C4:7C:8D:6A:12:34`: a sensor's `straps` entry takes the address after `ble:`.
    public var strap: String
    /// `connected`, `no contact`, `lost: …`.
    public var state: String
    /// Its last reading, when one came.
    public var bpm: Int?
}
