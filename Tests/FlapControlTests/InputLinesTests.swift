import Foundation
import Testing

@testable import FlapControl

/// `--jsonl`'s line reader against what `readLine(strippingNewline: true)` gives, through a real pipe.
@Suite struct InputLinesTests {
    func lines(of input: [UInt8]) -> [[UInt8]] {
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(input))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        var lines: [[UInt8]] = []
        InputLines.forEach(descriptor: pipe.fileHandleForReading.fileDescriptor) { lines.append(Array($0)) }
        return lines
    }

    @Test func linesEndAtNewlinesWithOrWithoutCarriageReturns() {
        #expect(lines(of: Array("a\nbc\r\n\n\r\nlast".utf8)) == ["a", "bc", "", "", "last"].map { Array($0.utf8) })
        #expect(lines(of: Array("one\n".utf8)) == [Array("one".utf8)])
        #expect(lines(of: []) == [])
        #expect(lines(of: Array("end\r".utf8)) == [Array("end\r".utf8)])  // no newline, so nothing stripped
    }

    @Test func aLineLongerThanTheBufferAndManyLinesAcrossBlocksComeWhole() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 200_000)
        var input = long + [0x0A]
        for i in 0..<20_000 { input += Array("line \(i)\n".utf8) }
        let read = lines(of: input)
        #expect(read.count == 20_001)
        #expect(read[0] == long)
        #expect(read[1] == Array("line 0".utf8) && read[20_000] == Array("line 19999".utf8))
    }
}
