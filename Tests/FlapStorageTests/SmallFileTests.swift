import FlapStorage
import Foundation
import Testing

/// Files flapd keeps are read within their budget, whatever their size says.
@Suite struct SmallFileTests {
    func file(bytes: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("small-\(UUID().uuidString)").path
        try Data(repeating: UInt8(ascii: "x"), count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileAtItsBudgetIsReadWholeAndOneByteMoreIsRefused() throws {
        for largest in [0, 1, 4096, 16 * 1024, 100_000] {
            let at = try file(bytes: largest)
            #expect(try SmallFile.read(at, largest: largest)?.count == largest)
            let over = try file(bytes: largest + 1)
            #expect(throws: SmallFile.Failure.tooLarge(path: over, largest: largest)) { try SmallFile.read(over, largest: largest) }
        }
    }

    @Test func aHugeFileCostsNoMoreThanItsBudget() throws {
        // 64 MiB, sparse: read as far as the budget and a byte, then refused.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        #expect(throws: SmallFile.Failure.tooLarge(path: path, largest: 256 * 1024)) { try SmallFile.read(path, largest: 256 * 1024) }
        #expect("\(SmallFile.Failure.tooLarge(path: path, largest: 256 * 1024))" == "\(path) is larger than 256 KiB, the most it may hold")
    }

    @Test func noFileIsNilAndOneThatCannotBeReadSaysWhy() throws {
        #expect(try SmallFile.read("/no/such/file", largest: 10) == nil)
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: SmallFile.Failure.unreadable(path: directory, errno: EISDIR)) { try SmallFile.read(directory, largest: 10) }
        #expect(SmallFile.lines(directory, largest: 10).isEmpty)
    }
}
