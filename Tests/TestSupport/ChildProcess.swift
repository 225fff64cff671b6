import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for tests, spawned with `posix_spawn` and an empty signal mask.
///
/// Foundation's `Process`, started from a concurrency thread, passes on a blocked SIGTERM
/// (swift-corelibs-foundation issue 4772), so a graceful-shutdown test would wait forever.
/// stdout and stderr go to files that tests read while it runs; no other descriptor is inherited.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let stdoutPath: String
    public let stderrPath: String
    /// The exit status once reaped (a process is reaped once).
    private let exitStatus = Mutex<Int32?>(nil)

    public init(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        stdoutPath = dir + "/stdout"
        stderrPath = dir + "/stderr"

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Nothing else the test process has open goes with the child: a broker that outlives its
        // test would otherwise keep another test's deleted file (and its blocks) alive.
        try Self.closeFrom(3, &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { env.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, argv, env)
        guard result == 0 else { throw PeerError("cannot start \(program): \(String(cString: strerror(result)))") }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its header
    /// declares only for C compiled with _GNU_SOURCE, so Swift finds it by name.
    private static func closeFrom(_ lowest: Int32, _ actions: inout posix_spawn_file_actions_t) throws {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw PeerError("this C library has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later has)")
        }
        let result = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
        guard result == 0 else { throw PeerError("posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(result)))") }
    }

    /// The output so far, as text: bytes that are not UTF-8 (a PNG a subscriber prints) as U+FFFD, not the whole output lost.
    public var stdout: String { FileManager.default.contents(atPath: stdoutPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }
    public var stderr: String { FileManager.default.contents(atPath: stderrPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits (with `patience`, see ``eventually(patience:every:_:)``) for the process to exit; its
    /// exit status, or nil if it is still running.
    @discardableResult
    public func wait(patience: Duration = minimumPatience) async -> Int32? {
        var status: Int32?
        _ = try? await eventually(patience: patience, every: .milliseconds(10)) {
            status = poll()
            return status != nil
        }
        return status
    }

    /// The exit status if the process has exited (128 + signal when killed).
    public func poll() -> Int32? {
        exitStatus.withLock { exitStatus in
            if let exitStatus { return exitStatus }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            let signalled = status & 0x7F
            exitStatus = signalled == 0 ? (status >> 8) & 0xFF : 128 + signalled
            return exitStatus
        }
    }

    /// Kills it (SIGKILL) if it still runs, and reaps it.
    public func stop() async {
        if poll() == nil {
            signal(SIGKILL)
            await wait()
        }
    }

    /// Waits until `text` appears in stderr; returns stderr.
    public func waitForLog(_ text: String) async throws -> String {
        var log = ""
        let logged = try await eventually {
            log = stderr
            if !log.contains(text), let status = poll() { throw PeerError("exited with \(status) before logging \(text.debugDescription):\n\(log)") }
            return log.contains(text)
        }
        if logged { return log }
        throw PeerError("no \(text.debugDescription) in the log after \(minimumPatience):\n\(stderr)")
    }
}
