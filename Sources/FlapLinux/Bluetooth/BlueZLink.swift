import FlapHardware
import FlapHeartRate

/// One strap the session follows, by its device object.
struct BlueZLink<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    enum Phase { case idle, connecting, resolving, subscribing, live }
    var strap: StrapIdentity
    var phase = Phase.idle
    var nextAttempt: Instant?
    var backoff: Backoff
    var location: BodySensorLocation?
}
