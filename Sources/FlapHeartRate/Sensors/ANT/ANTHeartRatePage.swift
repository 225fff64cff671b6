import FlapHardware

/// One data page of the ANT+ heart-rate profile (8 bytes). Every page ends with the same four
/// bytes: the last beat's event time (1/1024 s, rolling over at 64 s), the beat count (rolling
/// over at 256) and the computed heart rate; byte 0 is the page number, its top bit a toggle
/// that flips every fourth message on straps that send numbered pages.
public struct ANTHeartRatePage: Sendable, Equatable {
    /// The page number (the toggle bit aside).
    public var number: UInt8
    /// The toggle bit.
    public var toggle: Bool
    /// The last beat's event time, in 1/1024 s.
    public var beatTime: UInt16
    /// Beats counted, rolling over at 256.
    public var beatCount: UInt8
    /// Beats per minute; nil when the strap sends 0 (invalid).
    public var computedHeartRate: Int?
    /// What the page-specific bytes say.
    public var detail: Detail

    /// What the page-specific bytes 1–3 say.
    public enum Detail: Sendable, Equatable {
        /// Page 0, or any page of a strap that does not number its pages.
        case none
        /// Page 1: time in operation, in seconds (counted in units of 2 s).
        case operatingTime(seconds: Int)
        /// Page 2: the manufacturer's id and the top 16 bits of the serial number.
        case manufacturer(id: UInt8, serialHigh: UInt16)
        /// Page 3: hardware and software versions and the model number.
        case product(hardware: UInt8, software: UInt8, model: UInt8)
        /// Page 4: the event time of the beat before the last one (1/1024 s).
        case previousBeat(time: UInt16)
        /// Page 7: battery level in percent, voltage, status, each when the strap gives it.
        case battery(level: Int?, volts: Double?, status: BatteryStatus?)
        /// A page this receiver does not need (5, 6, manufacturer pages).
        case other
    }

    /// Page 7's battery status.
    public enum BatteryStatus: UInt8, Sendable, Equatable {
        case new = 1, good, ok, low, critical
    }

    static let what = "ANT+ heart-rate page"

    /// Decodes the eight bytes of a broadcast. With `numbered` false (a strap whose toggle bit
    /// has never flipped), bytes 0–3 mean nothing and only the common bytes are read.
    public init(decoding bytes: [UInt8], numbered: Bool = true) throws(HeartRateDecodingError) {
        guard bytes.count == 8 else { throw HeartRateDecodingError(Self.what, byte: min(bytes.count, 8), "\(bytes.count) bytes (8 were expected)") }
        number = bytes[0] & 0x7F
        toggle = bytes[0] & 0x80 != 0
        beatTime = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        beatCount = bytes[6]
        computedHeartRate = bytes[7] == 0 ? nil : Int(bytes[7])
        guard numbered else { detail = .none; return }
        switch number {
        case 0: detail = .none
        case 1: detail = .operatingTime(seconds: (Int(bytes[1]) | Int(bytes[2]) << 8 | Int(bytes[3]) << 16) * 2)
        case 2: detail = .manufacturer(id: bytes[1], serialHigh: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
        case 3: detail = .product(hardware: bytes[1], software: bytes[2], model: bytes[3])
        case 4: detail = .previousBeat(time: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
        case 7:
            let level = bytes[1] == 0xFF ? nil : Int(bytes[1])
            if let level, level > 100 {
                throw HeartRateDecodingError(Self.what, byte: 1, "battery level \(level) is not a percentage (0 to 100, or 0xFF)")
            }
            let coarse = bytes[3] & 0x0F
            let volts = coarse == 0x0F ? nil : Double(coarse) + Double(bytes[2]) / 256
            let status = (bytes[3] >> 4) & 0x07
            detail = .battery(level: level, volts: volts, status: BatteryStatus(rawValue: status))
        default: detail = .other
        }
    }
}

/// Turns one strap's stream of pages into readings: finds out whether the strap numbers its
/// pages (its toggle bit flips), and derives RR intervals from the beat event times when beats
/// are consecutive (or from page 4's previous beat time when messages were missed).
public struct ANTHeartRateReceiver: Sendable {
    /// What a page gives.
    public struct Reading: Sendable, Equatable {
        /// Beats per minute.
        public var bpm: Int
        /// Intervals of the beats new since the last reading, in 1/1024 s.
        public var rrIntervals: [UInt16]
        /// Battery charge in percent, once a page has said.
        public var battery: Int?

        /// A reading as given.
        public init(bpm: Int, rrIntervals: [UInt16], battery: Int?) {
            self.bpm = bpm
            self.rrIntervals = rrIntervals
            self.battery = battery
        }
    }

    private var firstToggle: Bool?
    /// True once the toggle bit has flipped: page numbers mean something.
    public private(set) var numbered = false
    private var lastCount: UInt8?
    private var lastTime: UInt16?
    private var battery: Int?

    /// A receiver that has seen no page yet.
    public init() {}

    /// The reading this page gives, or nil when it brings no new beat and no heart rate.
    public mutating func receive(_ bytes: [UInt8]) throws(HeartRateDecodingError) -> Reading? {
        guard bytes.count == 8 else {
            throw HeartRateDecodingError(ANTHeartRatePage.what, byte: min(bytes.count, 8), "\(bytes.count) bytes (8 were expected)")
        }
        let toggle = bytes[0] & 0x80 != 0
        if let firstToggle, firstToggle != toggle { numbered = true }
        if firstToggle == nil { firstToggle = toggle }
        let page = try ANTHeartRatePage(decoding: bytes, numbered: numbered)
        if case .battery(let level?, _, _) = page.detail { battery = level }
        var intervals: [UInt16] = []
        if let lastCount, page.beatCount != lastCount {
            let beats = page.beatCount &- lastCount
            if case .previousBeat(let previous) = page.detail {
                intervals = [page.beatTime &- previous]
            } else if beats == 1, let lastTime {
                intervals = [page.beatTime &- lastTime]
            }
        }
        let newBeat = lastCount.map { $0 != page.beatCount } ?? true
        lastCount = page.beatCount
        lastTime = page.beatTime
        guard newBeat, let bpm = page.computedHeartRate else { return nil }
        return Reading(bpm: bpm, rrIntervals: intervals.filter { $0 > 0 }, battery: battery)
    }
}
