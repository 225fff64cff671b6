import FlapHardware

/// A heart-rate source as `GET /v1/sensors` shows it.
public struct SensorReport: Sendable, Codable, Equatable {
    public var name: String
    public var driver: String
    /// searching, connected, no-contact, lost.
    public var state: String
    public var reason: String?
    public var remedy: String?
    public var straps: [StrapReport]
}

/// One strap: its state and its latest reading (in memory only; never stored).
public struct StrapReport: Sendable, Codable, Equatable {
    /// `ble:C4:7C:8D:6A:12:34`.
    public var id: String
    public var address: String
    /// The configured name, else the address.
    public var name: String
    public var state: String
    public var reason: String?
    public var contact: String?
    public var bpm: Int?
    /// The latest beat-to-beat intervals in milliseconds.
    public var rrMilliseconds: [Int]?
    public var battery: Int?
    public var rssi: Int?
    public var bodyLocation: String?
    /// How long ago the latest reading arrived.
    public var secondsSinceReading: Double?
}

extension HeartRateSensorState {
    var reason: String? { if case .lost(let reason, _) = self { reason } else { nil } }
    var remedy: String? { if case .lost(_, let remedy) = self { remedy } else { nil } }
}
