import Foundation
import TestSupport
import Testing

@Suite struct ChildProcessTests {
    /// A file a test has open (even without close-on-exec, as Foundation's FileHandle opens
    /// them) does not go with a child: a broker that outlived its test kept another test's
    /// deleted filler open, and the space it should have given back with it.
    @Test func aChildInheritsOnlyItsStandardDescriptors() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: path)
        }
        try #require(handle.fileDescriptor > 3, "the test's file is one a child could be told from its own")
        let child = try ChildProcess("/bin/ls", ["/proc/self/fd"])
        #expect(await child.wait() == 0)
        let descriptors = child.stdout.split(separator: "\n").compactMap { Int32($0) }
        // 0–2 are its own, and 3 is ls's for the directory it lists.
        #expect(descriptors.contains(0) && descriptors.allSatisfy { $0 <= 3 }, "the child had: \(descriptors)")
    }
}
