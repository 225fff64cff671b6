import FlapHardware
import FlapHeartRate
import Testing

/// ANT framing and the ANT+ heart-rate profile, on vectors worked out by hand from the ANT
/// message protocol (sync 0xA4, length, id, payload, XOR checksum) and the heart-rate device
/// profile (pages 0–4 and 7; bytes 4–5 beat time in 1/1024 s, 6 beat count, 7 heart rate).
@Suite struct ANTDecodingTests {
    @Test func messagesEncodeWithTheirChecksum() {
        // A4^01^4A^00 = EF; A4^02^4D^00^54 = BF (python-ant's capture of a USB2 stick agrees).
        #expect(ANT.resetSystem().encoded() == [0xA4, 0x01, 0x4A, 0x00, 0xEF])
        #expect(ANT.requestMessage(ANT.ID.capabilities).encoded() == [0xA4, 0x02, 0x4D, 0x00, 0x54, 0xBF])
        let checksum: UInt8 = 0xA4 ^ 0x03 ^ 0x43 ^ 0x86 ^ 0x1F
        #expect(ANT.channelPeriod(0, 8070).encoded() == [0xA4, 0x03, 0x43, 0x00, 0x86, 0x1F, checksum])
        #expect(ANT.channelID(1, deviceNumber: 0x3039, deviceType: 120).payload == [0x01, 0x39, 0x30, 0x78, 0x00])
        #expect(ANT.radioFrequency(0, 57).payload == [0x00, 0x39])
    }

    @Test func theReaderFindsMessagesInAGarbledStream() {
        var reader = ANTFrameReader()
        let capabilities: [UInt8] = [0xA4, 0x06, 0x54, 0x08, 0x03, 0x00, 0xBA, 0x36, 0x00, 0x71]
        let startup: [UInt8] = [0xA4, 0x01, 0x6F, 0x20, 0xEA]
        let badChecksum: [UInt8] = [0xA4, 0x01, 0x6F, 0x20, 0x00]
        let tooLong: [UInt8] = [0xA4, 0xF0]
        var results = reader.append([0x11, 0x22] + capabilities.prefix(4))
        results += reader.append(Array(capabilities.dropFirst(4)) + badChecksum + tooLong + startup)
        let messages = results.compactMap { try? $0.get() }
        #expect(messages == [ANTMessage(0x54, [0x08, 0x03, 0x00, 0xBA, 0x36, 0x00]), ANTMessage(0x6F, [0x20])])
        let errors = results.compactMap { if case .failure(let e) = $0 { e } else { nil } }
        #expect(errors.contains { $0.description.contains("2 bytes before a sync byte") })
        #expect(errors.contains { $0.description == "ANT message 0x6F, byte 4: checksum 0x00, expected 0xEA" })
        #expect(errors.contains { $0.description.contains("length 240") })
    }

    @Test func broadcastsWithExtendedData() throws {
        let plain = try ANTBroadcast(decoding: ANTMessage(0x4E, [0x02, 0x04, 0xFF, 0x00, 0x04, 0x00, 0x08, 0x05, 0x48]))
        #expect(plain.channel == 2 && plain.page == [0x04, 0xFF, 0x00, 0x04, 0x00, 0x08, 0x05, 0x48] && plain.deviceNumber == nil)
        // Flag 0xC0: device number 0x3039 (12345), type 120, transmission 1; RSSI -60 dBm (0xC4).
        let extended = try ANTBroadcast(
            decoding: ANTMessage(
                0x4E,
                [
                    0x00, 0x04, 0xFF, 0x00, 0x04, 0x00, 0x08, 0x05, 0x48,
                    0xC0, 0x39, 0x30, 0x78, 0x01, 0x20, 0xC4, 0xB0
                ]))
        #expect(extended.deviceNumber == 12345 && extended.deviceType == 120 && extended.transmissionType == 1 && extended.rssi == -60)
        #expect(try ANTBroadcast(decoding: extended.encoded()) == extended)
        #expect(throws: HeartRateDecodingError.self) { try ANTBroadcast(decoding: ANTMessage(0x4E, [0x00, 1, 2])) }
        #expect(throws: HeartRateDecodingError.self) { try ANTBroadcast(decoding: ANTMessage(0x4E, [0, 1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0x39])) }
    }

    @Test func everyHeartRatePage() throws {
        // Common bytes: beat time 0x0400 (1.0 s), count 5, 72 BPM.
        let common: [UInt8] = [0x00, 0x04, 0x05, 0x48]
        let page0 = try ANTHeartRatePage(decoding: [0x00, 0xFF, 0xFF, 0xFF] + common)
        #expect(
            page0.number == 0 && !page0.toggle && page0.beatTime == 1024 && page0.beatCount == 5 && page0.computedHeartRate == 72
                && page0.detail == .none)
        // Page 1: 0x000E10 = 3600 units of 2 s.
        #expect(try ANTHeartRatePage(decoding: [0x81, 0x10, 0x0E, 0x00] + common).detail == .operatingTime(seconds: 7200))
        #expect(try ANTHeartRatePage(decoding: [0x81, 0x10, 0x0E, 0x00] + common).toggle)
        #expect(try ANTHeartRatePage(decoding: [0x02, 0x01, 0x34, 0x12] + common).detail == .manufacturer(id: 1, serialHigh: 0x1234))
        #expect(try ANTHeartRatePage(decoding: [0x03, 0x05, 0x0A, 0x02] + common).detail == .product(hardware: 5, software: 10, model: 2))
        // Page 4: previous beat at 0x0355 (853/1024 s).
        #expect(try ANTHeartRatePage(decoding: [0x84, 0xFF, 0x55, 0x03] + common).detail == .previousBeat(time: 0x0355))
        // Page 7: 85 %, 3 + 0x80/256 = 3.5 V, status 2 (good) in bits 4–6.
        #expect(try ANTHeartRatePage(decoding: [0x07, 0x55, 0x80, 0x23] + common).detail == .battery(level: 85, volts: 3.5, status: .good))
        #expect(try ANTHeartRatePage(decoding: [0x07, 0xFF, 0x00, 0x7F] + common).detail == .battery(level: nil, volts: nil, status: nil))
        #expect(try ANTHeartRatePage(decoding: [0x05, 0x00, 0x00, 0x00] + common).detail == .other)
        #expect(try ANTHeartRatePage(decoding: [0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x05, 0x00]).computedHeartRate == nil)
        // Not numbered (a legacy strap): bytes 0–3 mean nothing.
        #expect(try ANTHeartRatePage(decoding: [0x04, 0xFF, 0x55, 0x03] + common, numbered: false).detail == .none)
        #expect(throws: HeartRateDecodingError("ANT+ heart-rate page", byte: 1, "battery level 101 is not a percentage (0 to 100, or 0xFF)")) {
            try ANTHeartRatePage(decoding: [0x07, 101, 0, 0] + common)
        }
        #expect(throws: HeartRateDecodingError.self) { try ANTHeartRatePage(decoding: [0x00, 1, 2]) }
    }

    @Test func rrIntervalsComeFromConsecutiveBeats() throws {
        var receiver = ANTHeartRateReceiver()
        func page(_ byte0: UInt8, prev: UInt16 = 0xFFFF, time: UInt16, count: UInt8, bpm: UInt8 = 75) -> [UInt8] {
            [byte0, 0xFF, UInt8(prev & 0xFF), UInt8(prev >> 8), UInt8(time & 0xFF), UInt8(time >> 8), count, bpm]
        }
        // The first message: a heart rate, no interval yet.
        #expect(try receiver.receive(page(0x04, time: 1000, count: 10)) == .init(bpm: 75, rrIntervals: [], battery: nil))
        // The same beat again (4 messages a second, about one beat a second): nothing new.
        #expect(try receiver.receive(page(0x04, time: 1000, count: 10)) == nil)
        // Toggle not seen flipping yet: pages unnumbered, the interval from the last beat time.
        #expect(try receiver.receive(page(0x04, time: 1820, count: 11)) == .init(bpm: 75, rrIntervals: [820], battery: nil))
        // The toggle flips: numbered from now on; two beats in one step, page 4 gives the last interval.
        #expect(try receiver.receive(page(0x84, prev: 2600, time: 3420, count: 13)) == .init(bpm: 75, rrIntervals: [820], battery: nil))
        #expect(receiver.numbered)
        // Two beats missed on a page without the previous time: no interval can be known.
        #expect(try receiver.receive(page(0x80, time: 5100, count: 15)) == .init(bpm: 75, rrIntervals: [], battery: nil))
        // Rollover of the time (64 s) and of the count (256).
        var rolling = ANTHeartRateReceiver()
        _ = try rolling.receive(page(0x00, time: 65_000, count: 255))
        #expect(try rolling.receive(page(0x00, time: 300, count: 0))?.rrIntervals == [836])
        // The battery page's level rides on later readings.
        _ = try receiver.receive([0x07, 0x50, 0x80, 0x23, 0xEC, 0x13, 15, 75])
        #expect(try receiver.receive(page(0x84, prev: 5100, time: 5900, count: 16))?.battery == 80)
    }
}
