import FlapHardware
import FlapHeartRate
import Testing

/// 0x2A37 values worked out by hand from the Heart Rate Service specification: byte 0 is the
/// flags (bit 0 uint16 value, bit 1 contact detected, bit 2 contact supported, bit 3 energy
/// expended, bit 4 RR intervals), then the fields the flags announce, little-endian.
@Suite struct HeartRateMeasurementTests {
    @Test func everyFlagCombinationDecodes() throws {
        // (bytes, bpm, contact, energy, rr)
        let cases: [([UInt8], Int, SensorContact, Int?, [UInt16])] = [
            ([0x00, 72], 72, .unknown, nil, []),
            ([0x01, 0x48, 0x00], 72, .unknown, nil, []),  // uint16 72
            ([0x01, 0x2C, 0x01], 300, .unknown, nil, []),  // uint16 300 = 0x012C
            ([0x02, 60], 60, .unknown, nil, []),  // "detected" without "supported": not supported
            ([0x04, 61], 61, .notDetected, nil, []),
            ([0x06, 62], 62, .detected, nil, []),
            ([0x08, 70, 0x10, 0x27], 70, .unknown, 10_000, []),  // 0x2710 kJ
            ([0x10, 75, 0x34, 0x03], 75, .unknown, nil, [820]),  // 0x0334 = 820/1024 s
            ([0x10, 75, 0x34, 0x03, 0x40, 0x03], 75, .unknown, nil, [820, 832]),
            ([0x16, 80, 0x00, 0x03, 0x00, 0x03, 0x00, 0x03], 80, .detected, nil, [768, 768, 768]),
            ([0x1F, 0x50, 0x00, 0xE8, 0x03, 0x00, 0x03], 80, .detected, 1000, [768]),  // everything, uint16
            ([0x1D, 0x50, 0x00, 0xFF, 0xFF], 80, .notDetected, 65_535, []),  // RR flag, no interval yet
            ([0xE0, 90], 90, .unknown, nil, [])  // reserved bits 5–7 ignored
        ]
        for (bytes, bpm, contact, energy, rr) in cases {
            let m = try HeartRateMeasurement(decoding: bytes)
            #expect(m == HeartRateMeasurement(bpm: bpm, contact: contact, energyExpended: energy, rrIntervals: rr), "\(bytes)")
        }
    }

    @Test func encodingRoundTrips() throws {
        for m in [
            HeartRateMeasurement(bpm: 72), HeartRateMeasurement(bpm: 301, contact: .detected, energyExpended: 5, rrIntervals: [800, 810]),
            HeartRateMeasurement(bpm: 55, contact: .notDetected, rrIntervals: [1100])
        ] {
            #expect(try HeartRateMeasurement(decoding: m.encoded()) == m)
        }
    }

    @Test func errorsNameTheOffendingByte() {
        let cases: [([UInt8], Int, String)] = [
            ([], 0, "empty"),
            ([0x00], 1, "before the heart rate"),
            ([0x01, 0x48], 1, "heart rate (uint16"),
            ([0x08, 70, 0x10], 2, "energy expended"),
            ([0x10, 75, 0x34, 0x03, 0x40], 4, "odd byte"),
            ([0x00, 72, 0x99], 2, "1 bytes after the last field")
        ]
        for (bytes, byte, words) in cases {
            #expect {
                _ = try HeartRateMeasurement(decoding: bytes)
            } throws: { error in
                guard let error = error as? HeartRateDecodingError else { return false }
                return error.position == byte && error.unit == "byte" && error.description.contains(words) && error.description.contains("0x2A37")
            }
        }
    }

    @Test func bodySensorLocationAndBatteryLevel() throws {
        #expect(try HeartRateService.bodySensorLocation(decoding: [1]) == .chest)
        #expect(try HeartRateService.bodySensorLocation(decoding: [6]) == .foot)
        #expect(throws: HeartRateDecodingError("Body Sensor Location (0x2A38)", byte: 0, "7 is not a location (0 to 6)")) {
            try HeartRateService.bodySensorLocation(decoding: [7])
        }
        #expect(throws: HeartRateDecodingError.self) { try HeartRateService.bodySensorLocation(decoding: [1, 2]) }
        #expect(try HeartRateService.batteryLevel(decoding: [0]) == 0)
        #expect(try HeartRateService.batteryLevel(decoding: [100]) == 100)
        #expect(throws: HeartRateDecodingError("Battery Level (0x2A19)", byte: 0, "101 is not a percentage (0 to 100)")) {
            try HeartRateService.batteryLevel(decoding: [101])
        }
        #expect(throws: HeartRateDecodingError.self) { try HeartRateService.batteryLevel(decoding: []) }
        #expect(HeartRateService.measurement == "00002a37-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateService.service == "0000180d-0000-1000-8000-00805f9b34fb")
    }
}
