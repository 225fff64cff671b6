import FlapHardware

/// One heart-rate reading from one strap.
public struct HeartRateSample<Instant: InstantProtocol & Sendable>: Sendable {
    /// The strap it came from.
    public var strap: StrapIdentity
    /// Beats per minute as the strap computed it.
    public var bpm: Int
    /// Whether it touches skin, as far as it says.
    public var contact: SensorContact
    /// Beat-to-beat intervals since the previous reading, in 1/1024 s, oldest first.
    public var rrIntervals: [UInt16]
    /// Energy expended since the strap's counter was reset, in kilojoules, when it says.
    public var energyExpended: Int?
    /// Battery charge in percent, when known.
    public var battery: Int?
    /// Where it is worn, when it says.
    public var bodyLocation: BodySensorLocation?
    /// Received signal strength in dBm, when the radio says.
    public var rssi: Int?
    /// When the reading was received, on the source's clock.
    public var instant: Instant

    /// A reading as given.
    public init(
        strap: StrapIdentity, bpm: Int, contact: SensorContact = .unknown, rrIntervals: [UInt16] = [],
        energyExpended: Int? = nil, battery: Int? = nil, bodyLocation: BodySensorLocation? = nil,
        rssi: Int? = nil, instant: Instant
    ) {
        self.strap = strap
        self.bpm = bpm
        self.contact = contact
        self.rrIntervals = rrIntervals
        self.energyExpended = energyExpended
        self.battery = battery
        self.bodyLocation = bodyLocation
        self.rssi = rssi
        self.instant = instant
    }
}

/// Whether the strap touches skin, as far as it reports.
public enum SensorContact: String, Sendable, Equatable {
    /// The strap does not report contact.
    case unknown
    case detected
    case notDetected = "not-detected"
}

/// Where the sensor is worn (Body Sensor Location, 0x2A38).
public enum BodySensorLocation: UInt8, Sendable, Equatable, CaseIterable {
    case other = 0, chest, wrist, finger, hand, earLobe, foot

    /// Its name for the API (`ear lobe`).
    public var name: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear lobe"
        case .foot: "foot"
        }
    }
}
