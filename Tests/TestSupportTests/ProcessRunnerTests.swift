import Foundation
import TestSupport
import Testing

@Suite struct ProcessRunnerTests {
    /// A test cancelled while its program runs (its time limit reached) ends the program and
    /// returns: reading the status of a program still running trapped, and took the whole test
    /// process down with it.
    @Test func aCancelledRunEndsTheProgramAndReturns() async throws {
        let running = Task { try await ProcessRunner.run("/bin/sleep", ["600"]) }
        // Cancelled once the program runs: its own process is there to end.
        #expect(try await eventually { ProcessRunnerTests.sleeping() })
        running.cancel()
        let result = try await running.value
        #expect(result.status == SIGKILL, "the program was ended by SIGKILL: \(result.status)")
        #expect(!ProcessRunnerTests.sleeping())
    }

    /// Whether a `sleep 600` of this process's is running.
    static func sleeping() -> Bool {
        // A child is listed under the thread that started it.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let children = threads.map { (try? String(contentsOfFile: "/proc/self/task/\($0)/children", encoding: .utf8)) ?? "" }.joined(separator: " ")
        return children.split(separator: " ").contains { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").hasPrefix("/bin/sleep\u{0}600")
        }
    }
}
