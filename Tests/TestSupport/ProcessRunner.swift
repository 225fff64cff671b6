import Foundation

/// Runs a program to completion, its input and output through temporary files (no pipe can
/// fill up and stall either side), for tests that drive a binary or a peer. The wait for the exit
/// holds no thread of the shared pool: on two cores, two tests blocked in `waitUntilExit` stalled
/// every other test, and the accelerated-clock tests saw their simulated time run out.
public enum ProcessRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: Data
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    public static func run(
        _ program: String, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil
    ) async throws -> Result {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let paths = ["in", "out", "err"].map { dir.appendingPathComponent($0).path }
        FileManager.default.createFile(atPath: paths[0], contents: input)
        FileManager.default.createFile(atPath: paths[1], contents: nil)
        FileManager.default.createFile(atPath: paths[2], contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let handles = [FileHandle(forReadingAtPath: paths[0]), FileHandle(forWritingAtPath: paths[1]), FileHandle(forWritingAtPath: paths[2])]
        // Closed here: Foundation keeps them open after the child exits, and a run of the suite
        // leaked hundreds, enough to push URLSession's select() past its 1024 descriptors.
        defer { for handle in handles { try? handle?.close() } }
        process.standardInput = handles[0]
        process.standardOutput = handles[1]
        process.standardError = handles[2]
        let exited = AsyncStream<Void> { continuation in
            process.terminationHandler = { _ in
                continuation.yield(); continuation.finish()
            }
        }
        try process.run()
        // The exit is waited for even when the test is cancelled (by its time limit), which ends
        // a stream's iteration early: Foundation traps on the status of a program still running.
        // Cancellation ends the program instead, with SIGKILL: Foundation's `Process` passes on a
        // blocked SIGTERM (see ChildProcess), so `terminate()` would not end it.
        let exit = Task.detached { for await _ in exited {} }
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                // A program may wait on an appliance whose clock is virtual: it moves meanwhile.
                group.addTask { await moveVirtualClocks(Teardowns.current?.timeMovers ?? []) }
                await exit.value
                group.cancelAll()
            }
        } onCancel: {
            kill(process.processIdentifier, SIGKILL)
        }
        return Result(
            status: process.terminationStatus,
            stdout: FileManager.default.contents(atPath: paths[1]) ?? Data(),
            stderr: FileManager.default.contents(atPath: paths[2]) ?? Data())
    }

    /// A binary built by this package (flapctl, flapd), beside the running test bundle.
    public static func builtProduct(_ name: String) -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name).path
    }
}
