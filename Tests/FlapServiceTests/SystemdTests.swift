import FlapLinux
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd as systemd runs it: READY and watchdog pings on NOTIFY_SOCKET, a clean stop on SIGTERM,
/// and a stop that waits neither for the next ping nor for a systemd that has stopped reading.
@Suite(.cleansUp, .timeLimit(.minutes(4))) struct SystemdTests {
    /// A unix datagram socket standing in for systemd's notify socket, read on a thread of its
    /// own (a blocking receive holds none of the test process's tasks) while `reading` says so,
    /// as a manager busy elsewhere would stop; the thread ends, and closes it, with the test.
    final class NotifySocket: Sendable {
        private struct State {
            var messages: [String] = []
            var reading: Bool
            var idle = false
            var done = false
        }

        /// Shared with the reading thread, which must not keep the socket itself alive.
        private final class Shared: Sendable {
            let state: Mutex<State>
            init(reading: Bool) { state = Mutex(State(reading: reading)) }
        }

        let path: String
        private let shared: Shared

        init(reading: Bool = true) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString.prefix(8))").path
            self.path = path
            let shared = Shared(reading: reading)
            self.shared = shared
            let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count - 1))) }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard result == 0 else {
                close(fd)
                throw PeerError("bind \(path): errno \(errno)")
            }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !shared.state.withLock({ $0.done }) {
                    guard
                        shared.state.withLock({
                            $0.idle = !$0.reading; return $0.reading
                        })
                    else {
                        usleep(10_000)
                        continue
                    }
                    let n = recv(fd, &buffer, buffer.count, 0)
                    if n > 0 { shared.state.withLock { $0.messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) } }
                }
                close(fd)
                unlink(path)
            }.start()
        }

        deinit { shared.state.withLock { $0.done = true } }

        /// Everything received so far, one line per notification field.
        var received: String { shared.state.withLock { $0.messages.joined(separator: "\n") } }
        func count(_ field: String) -> Int { received.components(separatedBy: field).count - 1 }

        /// Stops reading, once the reader has let go of the socket.
        func stopReading() async throws {
            shared.state.withLock { $0.reading = false }
            #expect(try await eventually { shared.state.withLock { $0.idle } })
        }

        func startReading() { shared.state.withLock { $0.reading = true } }

        /// Fills the queue with datagrams of its own until the next would have to wait.
        func fill() throws {
            let sender = SystemdNotifySocket(path)
            while true {
                // A pattern over the typed error, not `catch .queueFull`: Debian's Swift 6.2.3
                // crashes on that spelling (SIL ownership verification).
                do { try sender.send("FILLER=1") } catch { if case .queueFull = error { return } else { throw error } }
            }
        }
    }

    /// flapd as the unit starts it, with `watchdog` as WatchdogSec would set it.
    func startFlapd(_ socket: NotifySocket, watchdog: Duration) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment["WATCHDOG_USEC"] = "\(Int64(watchdog / .microseconds(1)))"
        environment["JOURNAL_STREAM"] = "8:1234"
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("sd-\(UUID().uuidString)").path
        let flapd = try ChildProcess(
            ProcessRunner.builtProduct("flapd"),
            ["--simulate", "--state-dir", state, "--api-port", "0", "--https-port", "0", "--local-api-port", "0"], environment: environment)
        teardown { await flapd.stop() }
        return flapd
    }

    /// SIGTERM, and the exit status, waited for as a guard against a hang: a stop takes well
    /// under a second, but sd_notify blocked on a full queue once made it never come.
    func stop(_ flapd: ChildProcess) async -> Int32? {
        flapd.signal(SIGTERM)
        return await flapd.wait(patience: .seconds(120))
    }

    @Test func readyWatchdogAndAGracefulStop() async throws {
        let socket = try NotifySocket()
        let flapd = try startFlapd(socket, watchdog: .milliseconds(200))
        // READY, then the watchdog pinged (every 100 ms) over and over: waited for, not timed.
        #expect(try await eventually { socket.received.contains("READY=1") && socket.count("WATCHDOG=1") >= 5 }, "\(socket.received)")
        // Under the journal, each line carries its priority.
        #expect(try await eventually { flapd.stderr.contains("<5>flapd 0.1.0 running") && flapd.stderr.contains("<6>ready") }, "\(flapd.stderr)")
        let status = await stop(flapd)
        #expect(status == 0, "flapd after SIGTERM:\n\(flapd.stderr.suffix(4000))")
        #expect(try await eventually { socket.received.contains("STOPPING=1") }, "\(socket.received)")
    }

    /// The unit's WatchdogSec=30 pings every 15 s, the whole time systemd allows a stop: the stop
    /// must not wait for the next ping. Here the next is ten minutes away.
    @Test func aStopDoesNotWaitForTheNextPing() async throws {
        let socket = try NotifySocket()
        let flapd = try startFlapd(socket, watchdog: .seconds(1200))
        #expect(try await eventually { socket.count("WATCHDOG=1") >= 1 }, "\(socket.received)")
        let status = await stop(flapd)
        #expect(status == 0, "flapd after SIGTERM:\n\(flapd.stderr.suffix(4000))")
        #expect(try await eventually { socket.received.contains("STOPPING=1") }, "\(socket.received)")
    }

    /// A systemd too busy to read when flapd is ready still hears READY once it reads again: a
    /// READY lost would leave the unit starting until systemd gave up on it.
    @Test func readyWaitsForAManagerThatIsNotReadingYet() async throws {
        let socket = try NotifySocket(reading: false)
        try socket.fill()
        let flapd = try startFlapd(socket, watchdog: .milliseconds(200))
        _ = try await flapd.waitForLog("READY is said again until it is taken")
        #expect(!flapd.stderr.contains("<6>ready"), "\(flapd.stderr)")
        socket.startReading()
        #expect(try await eventually { socket.received.contains("READY=1") && socket.count("WATCHDOG=1") >= 1 }, "\(socket.received)")
        _ = try await flapd.waitForLog("<6>ready")
        #expect(await stop(flapd) == 0, "flapd after SIGTERM:\n\(flapd.stderr.suffix(4000))")
    }

    /// A systemd that has stopped reading (its queue full) is not waited for: pings are dropped
    /// and said to be, and SIGTERM still stops flapd.
    @Test func aManagerThatStoppedReadingDoesNotHoldTheStop() async throws {
        let socket = try NotifySocket()
        let flapd = try startFlapd(socket, watchdog: .milliseconds(200))
        #expect(try await eventually { socket.received.contains("READY=1") }, "\(socket.received)")
        try await socket.stopReading()
        try socket.fill()
        _ = try await flapd.waitForLog("a watchdog ping was dropped")
        let status = await stop(flapd)
        #expect(status == 0, "flapd after SIGTERM:\n\(flapd.stderr.suffix(4000))")
    }
}

/// A flapd that cannot listen stops at once and says why, rather than running without an API.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct ListenFailureTests {
    @Test func aTakenPortStopsFlapdWithTheReason() async throws {
        let first = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await first.stop() }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        let second = try await ProcessRunner.run(
            ProcessRunner.builtProduct("flapd"),
            [
                "--simulate", "--no-sound", "--state-dir", state, "--api-port", "\(first.apiPort)", "--https-port", "0", "--local-api-port", "0"
            ])
        #expect(second.status == 69, "EX_UNAVAILABLE: systemd starts it again, and the port may be free by then")
        #expect(second.stderrText.contains("the native API cannot listen on 127.0.0.1:\(first.apiPort): the port is taken"), "\(second.stderrText)")
    }
}
