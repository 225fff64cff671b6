import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// Each module's stored flap positions are read at start whatever its firmware: v7 answers `d`
/// some 60 ms after the frame's newline, and Universal Firmware answers the moment it reads the
/// `d`, so a newline after it meets the answer on the half-duplex line and garbles its start.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(3))) struct RS485FirmwareTests {
    /// A calibration stored in each module, then flapd started again with `firmware` configured.
    func storedThenRestarted(
        serials: [String?]?, firmware: RS485Firmware?
    ) async throws -> (
        rig: RS485PanelTests.Rig, again: RS485Panel<EventClock>, stored: [StepperProfile], collisions: Int
    ) {
        let rig = await RS485PanelTests.Rig.make(rows: 1, columns: 2, serials: serials)
        try await rig.panel.homed()
        let reel = RS485Reel.firmware
        let a = try #require(reel.drum.index(of: CharacterCode(character: "A")!))
        for module in 0..<2 { try await rig.panel.command(.storeFlap(reel.reelIndex[a], step: reel.profile().step(ofFlap: a) + 30), module: module) }
        let stored = try #require(await rig.panel.moduleSteppers())
        let before = await rig.bus.collisions
        let again = await rig.restarted(firmware: firmware)
        try await again.homed()
        return (rig, again, stored, await rig.bus.collisions - before)
    }

    @Test func aUniversalWallNotConfiguredIsToldByItsGarbledAnswerAndAskedAgain() async throws {
        let (rig, again, stored, collisions) = try await storedThenRestarted(serials: ["5657000A", "5657000B"], firmware: nil)
        teardown { await rig.stop() }
        teardown { try? await rig.clock.standingAside { await again.shutDown() } }
        #expect(await again.moduleSteppers() == stored, "each module's calibration read despite the first answer garbled")
        let firmwares = [await again.firmware(module: 0), await again.firmware(module: 1)]
        #expect(firmwares == [.universal, .universal])
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        // Then, once each is known to run Universal Firmware, its flaps are asked (A).
        #expect(sent.hasSuffix("\nm01d\n\nm01v\nm01d\nm02d\n\nm02v\nm02d\nm01A\nm02A"), "\(sent.suffix(60).debugDescription)")
        #expect(collisions == 2, "each module's first answer met the newline")
        // The garbled answer ends the wait at once: the version is asked within moments, not
        // after the dump's whole wait.
        let received = await rig.bus.received
        let bytes = received.map(\.byte)
        let asked = try #require(bytes.indices.last { Array(bytes[$0...].prefix(5)) == Array("\nm01v".utf8) })
        let dumped = try #require(bytes[..<asked].indices.last { Array(bytes[$0...].prefix(6)) == Array("\nm01d\n".utf8) })
        #expect(received[dumped].at.duration(to: received[asked].at) < .milliseconds(200))
    }

    @Test func aUniversalWallConfiguredIsAskedAsItReads() async throws {
        let (rig, again, stored, collisions) = try await storedThenRestarted(serials: ["5657000A", "5657000B"], firmware: .universal)
        teardown { await rig.stop() }
        teardown { try? await rig.clock.standingAside { await again.shutDown() } }
        #expect(await again.moduleSteppers() == stored && collisions == 0)
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(
            sent.hasSuffix("\nm01d\nm02d\nm01A\nm02A"), "no newline after d or A, and no version asked: \(sent.suffix(40).debugDescription)")
    }

    @Test func aV7WallIsAskedAsBefore() async throws {
        let (rig, again, stored, collisions) = try await storedThenRestarted(serials: nil, firmware: nil)
        teardown { await rig.stop() }
        teardown { try? await rig.clock.standingAside { await again.shutDown() } }
        #expect(await again.moduleSteppers() == stored && collisions == 0)
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(sent.hasSuffix("\nm01d\n\nm02d\n"), "\(sent.suffix(40).debugDescription)")
        #expect(await again.firmware(module: 0) == nil, "nothing asked of it that only Universal Firmware knows")
    }
}
