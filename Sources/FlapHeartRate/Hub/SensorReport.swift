import FlapHardware

/// A heart-rate source as `GET /v1/sensors` shows it.
public struct SensorReport: Sendable, Codable, Equatable {
    /// Its name (`ble hci0`, `serial /dev/ttyACM0`).
    public var name: String
    /// Its kind.
    public var driver: String
    /// searching, connected, no-contact, lost.
    public var state: String
    /// Why it is lost, when it is.
    public var reason: String?
    /// What a person can do about it.
    public var remedy: String?
    /// Its straps.
    public var straps: [StrapReport]
}

/// One strap: its state and its latest reading (in memory only; never stored).
public struct StrapReport: Sendable, Codable, Equatable {
    /// `ble:C4:7C:8D:6A:12:34`.
    public var id: String
    /// The strap's own address.
    public var address: String
    /// The configured name, else the address.
    public var name: String
    /// searching, connected, no-contact, lost.
    public var state: String
    /// Why it is lost, when it is.
    public var reason: String?
    /// detected, not-detected or unknown.
    public var contact: String?
    /// Beats per minute.
    public var bpm: Int?
    /// The latest beat-to-beat intervals in milliseconds.
    public var rrMilliseconds: [Int]?
    /// Battery charge in percent.
    public var battery: Int?
    /// Signal strength in dBm.
    public var rssi: Int?
    /// Where it is worn.
    public var bodyLocation: String?
    /// How long ago the latest reading arrived.
    public var secondsSinceReading: Double?
}

extension HeartRateSensorState {
    var reason: String? { if case .lost(let reason, _) = self { reason } else { nil } }
    var remedy: String? { if case .lost(_, let remedy) = self { remedy } else { nil } }
}
