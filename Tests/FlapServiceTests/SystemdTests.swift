import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// flapd as systemd runs it: READY and watchdog pings on NOTIFY_SOCKET, a clean stop on SIGTERM.
@Suite(.cleansUp, .timeLimit(.minutes(4))) struct SystemdTests {
    /// A unix datagram socket standing in for systemd's notify socket.
    final class NotifySocket: @unchecked Sendable {
        let path: String
        let fd: Int32

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                _ = path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count - 1))) }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard result == 0 else { throw PeerError("bind \(path): errno \(errno)") }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Messages received until `enough` says so of all received, or `timeout` passes; read on
        /// a thread of its own, so the blocking receive holds none of the test process's tasks.
        func receive(within timeout: Duration, until enough: @escaping @Sendable ([String]) -> Bool) async -> [String] {
            await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
                Thread { [self] in
                    var messages: [String] = []
                    let end = ContinuousClock.now + timeout
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while ContinuousClock.now < end, !enough(messages) {
                        let n = recv(fd, &buffer, buffer.count, 0)
                        if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
                    }
                    continuation.resume(returning: messages)
                }.start()
            }
        }
    }

    @Test func readyWatchdogAndAGracefulStop() async throws {
        let socket = try NotifySocket()
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment["WATCHDOG_USEC"] = "200000"
        environment["JOURNAL_STREAM"] = "8:1234"
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("sd-\(UUID().uuidString)").path
        let flapd = try ChildProcess(
            ProcessRunner.builtProduct("flapd"),
            ["--simulate", "--state-dir", state, "--api-port", "0", "--https-port", "0", "--local-api-port", "0"], environment: environment)
        // READY, then the watchdog pinged (every 100 ms) over and over: waited for, not timed.
        let messages = await socket.receive(within: .seconds(40)) { received in
            let all = received.joined(separator: "\n")
            return all.contains("READY=1") && all.components(separatedBy: "WATCHDOG=1").count - 1 >= 5
        }.joined(separator: "\n")
        #expect(messages.contains("READY=1"))
        #expect(messages.components(separatedBy: "WATCHDOG=1").count - 1 >= 5)
        // Under the journal, each line carries its priority.
        #expect(try await eventually { flapd.stderr.contains("<5>flapd 0.1.0 running") && flapd.stderr.contains("<6>ready") }, "\(flapd.stderr)")
        flapd.signal(SIGTERM)
        // A guard against a hang, not a measure of speed: beside forty other flapds on two cores a
        // stop once took over 30 s here (the unit allows 15 s on an unloaded board).
        let status = await flapd.wait(timeout: .seconds(120))
        // Once in three loaded runs it had not stopped after 120 s: what it said is the evidence.
        #expect(status == 0, "flapd after SIGTERM:\n\(flapd.stderr.suffix(4000))")
        #expect(await socket.receive(within: .seconds(10)) { $0.joined().contains("STOPPING=1") }.joined().contains("STOPPING=1"))
        if status == nil { await flapd.stop() }
    }
}

/// A flapd that cannot listen stops at once and says why, rather than running without an API.
@Suite(.cleansUp, .timeLimit(.minutes(1))) struct ListenFailureTests {
    @Test func aTakenPortStopsFlapdWithTheReason() async throws {
        let first = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await first.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        let second = try await ProcessRunner.run(ProcessRunner.builtProduct("flapd"), [
            "--simulate", "--no-sound", "--state-dir", state, "--api-port", "\(first.apiPort)", "--https-port", "0", "--local-api-port", "0",
        ])
        #expect(second.status == 69, "EX_UNAVAILABLE: systemd starts it again, and the port may be free by then")
        #expect(second.stderrText.contains("the native API cannot listen on 127.0.0.1:\(first.apiPort): the port is taken"), "\(second.stderrText)")
    }
}
