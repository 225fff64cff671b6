import FlapHardware

/// A source of heart rates: a Bluetooth LE adapter, an ANT+ stick, a serial pulse sensor, a
/// simulation. One source may read several straps at once (a kiosk for a room does).
///
/// Implementation requirements:
/// - ``run(_:)`` reads until its task is cancelled, then returns promptly. It never throws: after
///   it starts, every trouble (a strap out of range, an unplugged stick, bluetoothd gone) is a
///   ``HeartRateStatus`` with a reason and, where there is one, a remedy.
/// - It reconnects by itself, with backoff, for as long as it runs: to a strap that walked out
///   of range, to a stick plugged in again, to a restarted bluetoothd.
/// - Its first status is `searching`; a strap is `connected` once it is heard, `noContact` while
///   it says the skin is not touched, `lost` when it stops being heard.
/// - Samples carry the instant of the source's clock at which they were received, and are never
///   stored by the source: not on disk, not in the log above debug level.
/// - Invalid configuration is refused when the source is made, not when it runs.
public protocol HeartRateSensor<Instant>: Sendable {
    associatedtype Instant: InstantProtocol & Sendable
    /// The source as a person knows it (`ble hci0`, `ant /dev/ant0`, `serial /dev/ttyACM0`).
    var name: String { get }
    /// Reads until cancelled, handing every event to `emit` in the order it happened.
    func run(_ emit: @escaping @Sendable (HeartRateEvent<Instant>) -> Void) async
}

/// What a heart-rate source reports.
public enum HeartRateEvent<Instant: InstantProtocol & Sendable>: Sendable {
    case sample(HeartRateSample<Instant>)
    case status(HeartRateStatus)
    /// Something worth a line in the log (a garbled message skipped, a strap found), never a reading.
    case notice(String)
}

/// A change of a source's or a strap's state.
public struct HeartRateStatus: Sendable, Equatable {
    /// The strap, or nil for the source itself (the adapter, the stick, the port).
    public var strap: StrapIdentity?
    /// Where it stands.
    public var state: HeartRateSensorState

    /// `strap` (nil: the source) is now `state`.
    public init(strap: StrapIdentity?, _ state: HeartRateSensorState) {
        self.strap = strap
        self.state = state
    }
}

/// Where a source or a strap stands.
public enum HeartRateSensorState: Sendable, Equatable, CustomStringConvertible {
    /// Looking for straps (or for the device to appear).
    case searching
    /// Heard, with readings.
    case connected
    /// Heard, but the strap says it is not touching skin.
    case noContact
    /// Not heard any more, or cannot be reached: why, and what a person can do.
    case lost(reason: String, remedy: String?)

    /// As a person reads it, with the reason and what to do when lost.
    public var description: String {
        switch self {
        case .searching: "searching"
        case .connected: "connected"
        case .noContact: "no contact"
        case .lost(let reason, let remedy): "lost: \(reason)" + (remedy.map { " (\($0))" } ?? "")
        }
    }

    /// A short name for APIs and metrics.
    public var name: String {
        switch self {
        case .searching: "searching"
        case .connected: "connected"
        case .noContact: "no-contact"
        case .lost: "lost"
        }
    }
}

/// Which strap a reading came from: stable across reconnections, and distinct across drivers.
public struct StrapIdentity: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// `ble`, `ant`, `serial`, `simulated`.
    public var driver: String
    /// The strap's own address: a Bluetooth address, an ANT device number, a port path, a name.
    public var address: String

    /// The strap `address` heard through `driver`.
    public init(driver: String, address: String) {
        self.driver = driver
        self.address = address
    }

    /// `ble:C4:7C:8D:6A:12:34`, `ant:12345`.
    public var description: String { "\(driver):\(address)" }

    /// Straps in order of their description.
    public static func < (a: StrapIdentity, b: StrapIdentity) -> Bool { a.description < b.description }
}
