import FlapCore
import FlapHardware
import Testing

/// Every frame the RS-485 driver sends, byte for byte; the reel as the board sees it; the
/// modules' answers read, and lines that are not answers refused with the column.
@Suite struct RS485FrameTests {
    func text(_ command: RS485Command, _ address: RS485Address) -> String {
        String(decoding: RS485Frame.encode(command, to: address), as: UTF8.self)
    }

    @Test func framesAreAsTheFirmwareReadsThem() {
        #expect(text(.show(UInt8(ascii: "A")), .module(5)) == "\nm05-A\n")
        #expect(text(.show(UInt8(ascii: "q")), .module(42)) == "\nm42-q\n")
        #expect(text(.show(UInt8(ascii: "r")), .module(123)) == "\nm123-r\n")
        #expect(text(.home, .all) == "\nm*h\n")
        #expect(text(.calibrate, .module(1)) == "\nm01c\n")
        #expect(text(.offset(30), .module(7)) == "\nm07o30\n")
        #expect(text(.stepsPerRevolution(4096), .module(7)) == "\nm07t4096\n")
        #expect(text(.nudge(12), .module(7)) == "\nm07s12\n")
        #expect(text(.goToStep(2048), .module(7)) == "\nm07g2048\n")
        #expect(text(.storeFlap(12, step: 768), .module(7)) == "\nm07w12:768\n")
        #expect(text(.setID(9), .module(7)) == "\nm07i9\n")
        #expect(text(.autoHome(false), .module(7)) == "\nm07a0\n")
        #expect(text(.autoHome(true), .module(7)) == "\nm07a1\n")
        #expect(text(.dump, .module(7)) == "\nm07d\n")
        #expect(text(.erase, .module(7)) == "\nm07e\n")
        #expect(RS485Command.dump.isAnswered && RS485Command.calibrate.isAnswered && !RS485Command.home.isAnswered)
        // Seven bytes with a three-digit ID at 9600 baud, 10 bits a byte.
        #expect(RS485Frame.showInterval == .microseconds(8334))  // 8 bytes of 10 bits at 9600 baud, 8333.3 µs, rounded up
    }

    @Test func theReelIsTheBoardsCharactersWithTheStarPassedOver() throws {
        let reel = RS485Reel.firmware
        #expect(reel.bytes.count == 64 && reel.drum.count == 63)
        #expect(reel.drum.codes.first == .blank)
        let quote = try #require(CharacterCode(character: "\""))
        let red = Colour.red.code
        #expect(reel.byte(forDrumFlap: try #require(reel.drum.index(of: quote))) == UInt8(ascii: "q"))
        #expect(reel.byte(forDrumFlap: try #require(reel.drum.index(of: red))) == UInt8(ascii: "r"))
        // After the `*`, a drum flap is one further on the reel, and timed where the reel has it.
        let profile = reel.profile()
        let redFlap = try #require(reel.drum.index(of: red))
        #expect(profile.step(ofFlap: redFlap) == 57 * 4096 / 64)
        #expect(profile.steps(from: redFlap - 1, to: redFlap) == 2 * 64, "? then * then r")
        #expect(profile.landings(from: 0, flaps: 2) == [.milliseconds(63), .milliseconds(127)])
        #expect(throws: DrumError.self) { try RS485Reel("AB") }
        #expect(throws: DrumError.self) { try RS485Reel(" AA") }
    }

    /// Where and why `line` is no answer ("read" when it is one).
    func refusal(_ line: String) -> String {
        var reader = RS485AnswerReader()
        guard case .failure(let error) = reader.read(Array((line + "\n").utf8)).first else { return "read" }
        return "\(error.column): \(error.problem)"
    }

    @Test func answersAreReadAndOtherLinesRefusedWithTheColumn() throws {
        var reader = RS485AnswerReader()
        // Split anywhere across reads, with \r\n endings too.
        var results = reader.read(Array("m05:40".utf8))
        results += reader.read(Array("96\nm12d:30:4096:0=0,5=321\r\nm7d:0:4096:\n".utf8))
        #expect(results.count == 3)
        #expect(try results[0].get() == .revolution(id: 5, steps: 4096))
        #expect(try results[1].get() == .dump(id: 12, offset: 30, steps: 4096, positions: [0: 0, 5: 321]))
        #expect(try results[2].get() == .dump(id: 7, offset: 0, steps: 4096, positions: [:]))
        #expect(refusal("hello") == "1: an answer starts with m")
        #expect(refusal("m5x:1") == "3: after the ID comes : (a revolution), d (a dump), v (a version), A (its state), or T, Q or M (a test)")
        #expect(refusal("m05:") == "5: the steps of a revolution must be a number")
        #expect(refusal("m05:4096junk") == "9: nothing should follow")
        #expect(refusal("m05d:1:2:3=") == "12: the flap's position must be a number")
        #expect(refusal("m1234:5") == "5: after the ID comes : (a revolution), d (a dump), v (a version), A (its state), or T, Q or M (a test)")
        // A line past the budget is dropped whole when it ends, and reading goes on.
        var long = RS485AnswerReader()
        let flood = long.read(Array(repeating: UInt8(ascii: "7"), count: RS485AnswerReader.maximumLine + 10) + Array("\nm01:4096\n".utf8))
        #expect(flood.count == 2)
        if case .failure(let error) = flood[0] { #expect(error.problem == "longer than 2048 bytes") } else { Issue.record("a flood was read") }
        #expect(try flood[1].get() == .revolution(id: 1, steps: 4096))
    }

    /// Universal Firmware's answers: its version with the serial number, an unnumbered module's
    /// announcement, and an ID taken (in both spellings its README shows).
    @Test func universalFirmwareAnswersAreReadWithTheColumnOfAMistake() throws {
        var reader = RS485AnswerReader()
        let results = reader.read(Array("m05v:31:5:00a1b2c3d4e5f6071829\nm17v:29\nmXadv:1F2E3D4C5B6A79881234\nmXack:1F2E:12\nmXackABCD:7\n".utf8))
        #expect(
            try results.map { try $0.get() } == [
                .version(id: 5, firmware: 31, serial: "00A1B2C3D4E5F6071829"), .version(id: 17, firmware: 29, serial: nil),
                .announcement(serial: "1F2E3D4C5B6A79881234"), .numbered(serial: "1F2E", id: 12), .numbered(serial: "ABCD", id: 7)
            ])
        var about = RS485AnswerReader()
        let states = about.read(Array("m05A:31:5:0A05:12:4096:1:3:0:5: AB:C\nm06A:30:6:0A06:0:4096:1:0\n".utf8))
        #expect(
            try states.map { try $0.get() } == [
                .about(id: 5, firmware: 31, serial: "0A05", flaps: " AB:C"), .about(id: 6, firmware: 30, serial: "0A06", flaps: nil)
            ])
        #expect(refusal("m05A:31:5:0A05:12:4096:1:3:0:6: AB:C") == "37: the flap count says 6, and 5 flaps follow")
        #expect(refusal("m05A:31:5:0A05::4096") == "16: the home offset is missing")
        #expect(refusal("m05v:31:6:AB") == "9: the ID differs from the one the answer began with")
        #expect(refusal("mXadv:xyz") == "7: a serial number is hexadecimal digits")
        #expect(refusal("mXadv:" + String(repeating: "A", count: 40)) == "39: nothing should follow")
        #expect(refusal("mXhello") == "3: mX is followed by adv (an announcement) or ack (an ID taken)")
        #expect(refusal("mXack:AB") == "9: the serial number is followed by : and the ID")
    }

    /// Universal Firmware's tests as its README gives them: the Hall sensor's with or without the
    /// goings of v28, its health with an unknown flap (-1), the motor's with or without each turn.
    @Test func universalFirmwareTestsAreReadWithTheColumnOfAMistake() throws {
        var reader = RS485AnswerReader()
        let lines = "m38T:0:1:168:1\nm38T:2:0:0\nm38Q:8:17:4310:0:-1\nm38M:1:3696:4096:102:168:4505:168:4096,3996,3896\nm38M:2:0:0:0:0:4505\n"
        #expect(
            try reader.read(Array(lines.utf8)).map { try $0.get() } == [
                .hall(id: 38, HallTest(code: 0, edges: 1, activeSamples: 168, fallingEdges: 1)),
                .hall(id: 38, HallTest(code: 2, edges: 0, activeSamples: 0)),
                .diagnostics(id: 38, ModuleDiagnostics(resetCause: 8, boots: 17, millivolts: 4310, memoryOK: false, flap: nil)),
                .mechanical(
                    id: 38,
                    MechanicalTest(code: 1, fewest: 3696, most: 4096, spreadTenths: 102, gateActive: 168, gateSpan: 4505, turns: [4096, 3996, 3896])),
                .mechanical(id: 38, MechanicalTest(code: 2, fewest: 0, most: 0, spreadTenths: 0, gateActive: 0, gateSpan: 4505))
            ])
        #expect(refusal("m38T:0:1") == "9: the steps that read it follows a :")
        #expect(refusal("m38Q:8:17:4.3:1:0") == "12: its memory's check follows a :")
        #expect(refusal("m38M:1:3696:4096:102:168:4505:168:4096,x") == "40: a turn's steps must be a number")
        #expect(refusal("m38T:0:1:168:1:9") == "15: nothing should follow")
    }
}
