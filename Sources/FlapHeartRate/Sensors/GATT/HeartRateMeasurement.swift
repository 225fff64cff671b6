import FlapHardware

/// The Heart Rate Measurement characteristic (0x2A37) of the Bluetooth Heart Rate Service:
/// a flags byte, the heart rate (uint8 or uint16), optionally the energy expended (uint16, kJ),
/// and any number of RR intervals (uint16, 1/1024 s), all little-endian.
public struct HeartRateMeasurement: Sendable, Equatable {
    /// Beats per minute.
    public var bpm: Int
    /// Whether it touches skin, as far as it says.
    public var contact: SensorContact
    /// Energy expended, in kilojoules, when it says.
    public var energyExpended: Int?
    /// RR intervals in 1/1024 s, oldest first.
    public var rrIntervals: [UInt16]

    /// A measurement as given.
    public init(bpm: Int, contact: SensorContact = .unknown, energyExpended: Int? = nil, rrIntervals: [UInt16] = []) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    static let what = "Heart Rate Measurement (0x2A37)"

    /// Flag bits of byte 0.
    enum Flag {
        static let sixteenBitValue: UInt8 = 0x01
        static let contactDetected: UInt8 = 0x02
        static let contactSupported: UInt8 = 0x04
        static let energyExpended: UInt8 = 0x08
        static let rrIntervals: UInt8 = 0x10
    }

    /// Decodes a notification's value. Reserved flag bits (5–7) are ignored, as the
    /// specification asks of a receiver.
    public init(decoding value: some Collection<UInt8>) throws(HeartRateDecodingError) {
        let bytes = Array(value)
        guard let flags = bytes.first else { throw HeartRateDecodingError(Self.what, byte: 0, "the value is empty (a flags byte was expected)") }
        var offset = 1
        func uint16(_ field: String) throws(HeartRateDecodingError) -> Int {
            guard offset + 2 <= bytes.count else {
                throw HeartRateDecodingError(
                    Self.what, byte: min(offset, bytes.count),
                    "the value ends inside the \(field) (2 bytes from byte \(offset), \(bytes.count) bytes in all)")
            }
            defer { offset += 2 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        }
        if flags & Flag.sixteenBitValue != 0 {
            bpm = try uint16("heart rate (uint16, flag bit 0 set)")
        } else {
            guard bytes.count > 1 else { throw HeartRateDecodingError(Self.what, byte: 1, "the value ends before the heart rate (uint8)") }
            bpm = Int(bytes[1])
            offset = 2
        }
        switch (flags & Flag.contactSupported != 0, flags & Flag.contactDetected != 0) {
        case (false, _): contact = .unknown
        case (true, true): contact = .detected
        case (true, false): contact = .notDetected
        }
        energyExpended = flags & Flag.energyExpended != 0 ? try uint16("energy expended (flag bit 3 set)") : nil
        rrIntervals = []
        if flags & Flag.rrIntervals != 0 {
            if (bytes.count - offset) % 2 != 0 {
                throw HeartRateDecodingError(
                    Self.what, byte: bytes.count - 1, "an odd byte after the RR intervals (they are 2 bytes each from byte \(offset))")
            }
            while offset < bytes.count { rrIntervals.append(UInt16(try uint16("RR interval"))) }
        } else if offset < bytes.count {
            throw HeartRateDecodingError(
                Self.what, byte: offset, "\(bytes.count - offset) bytes after the last field the flags announce (0x\(hex(flags)))")
        }
    }

    /// The value as a strap sends it (for simulations and tests): uint16 only when needed.
    public func encoded() -> [UInt8] {
        var flags: UInt8 = 0
        var body: [UInt8] = []
        if bpm > 255 {
            flags |= Flag.sixteenBitValue
            body += [UInt8(bpm & 0xFF), UInt8(bpm >> 8 & 0xFF)]
        } else {
            body.append(UInt8(bpm))
        }
        switch contact {
        case .unknown: break
        case .detected: flags |= Flag.contactSupported | Flag.contactDetected
        case .notDetected: flags |= Flag.contactSupported
        }
        if let energyExpended {
            flags |= Flag.energyExpended
            body += [UInt8(energyExpended & 0xFF), UInt8(energyExpended >> 8 & 0xFF)]
        }
        if !rrIntervals.isEmpty {
            flags |= Flag.rrIntervals
            for rr in rrIntervals { body += [UInt8(rr & 0xFF), UInt8(rr >> 8)] }
        }
        return [flags] + body
    }
}

func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
