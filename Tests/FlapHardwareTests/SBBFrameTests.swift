import FlapHardware
import Testing

/// SBB/annax frames as adfinis/sbb-fallblatt's protocol document spells them, and the modules'
/// raw answers read by the length each question asks for.
@Suite struct SBBFrameTests {
    @Test func framesAreSpeltAsTheProtocolDocumentsThem() throws {
        // Its own examples: address 29 shown blade 20; asked its position and its serial number.
        #expect(try SBBCommand.show(20).frame(to: 29) == [0xFF, 0xC0, 0x1D, 0x14])
        #expect(try SBBCommand.position.frame(to: 29) == [0xFF, 0xD0, 0x1D])
        #expect(try SBBCommand.serial.frame(to: 29) == [0xFF, 0xDF, 0x1D])
        #expect(try SBBCommand.setAddress(30).frame(to: 29) == [0xFF, 0xCE, 0x1D, 0x1E])
        #expect(throws: SBBFrameError.outOfRange("an address", 256)) { try SBBCommand.zero.frame(to: 256) }
        #expect(throws: SBBFrameError.outOfRange("a blade", 300)) { try SBBCommand.show(300).frame(to: 1) }
        #expect("\(SBBFrameError.outOfRange("a blade", -1))" == "a blade is 0 to 254, not -1")
        // A frame of 4 bytes at 19200 baud: 2.084 ms.
        #expect(SBBLine.airtime(of: 4) == .microseconds(2084))
    }

    @Test func answersAreReadByTheLengthAsked() throws {
        #expect(try SBBAnswer.read([0x1E], answering: .position) == .position(30))
        // The document's example bytes (01 88 3f 00) do not spell its number (43516) either way
        // round; read least significant first, as the twin sends them.
        #expect(try SBBAnswer.read([0xFC, 0xA9, 0x00, 0x00], answering: .serial) == .serial(43516))
        #expect(try SBBAnswer.read([0x01, 0x02], answering: .version) == .version(0x0102))
        #expect(try SBBAnswer.read([0x02], answering: .type) == .type(2))
        #expect(throws: SBBAnswerError.length(0xDF, expected: 4, got: 3)) { try SBBAnswer.read([1, 2, 3], answering: .serial) }
        #expect(
            "\(SBBAnswerError.length(0xDF, expected: 4, got: 3))" == "the answer to DF was cut short: 3 of its 4 bytes")
        #expect(
            "\(SBBAnswerError.length(0xD0, expected: 1, got: 2))" == "the answer to D0 is 1 byte, and 2 came: another module or noise on the bus")
        #expect(throws: SBBAnswerError.notAnswered(0xC0)) { try SBBAnswer.read([1], answering: .show(1)) }
    }
}
