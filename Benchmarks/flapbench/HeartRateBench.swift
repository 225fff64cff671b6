import FlapControl
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `flapbench --heart-rate`: a Bluetooth LE strap's notifications through a real
/// dbus-daemon into a running flapd (BlueZ played by python-dbusmock, Tests/Peers/bluez_peer.py,
/// which needs Debian's python3-dbusmock; flapd reads it with `--sensor ble=hci0` and
/// DBUS_SYSTEM_BUS_ADDRESS): notification → reading latency inside flapd, from its debug line
/// for each reading; readings per CPU second of flapd; then flapd's memory reading 20 simulated
/// straps.
struct HeartRateBench {
    let seconds: Double
    let output: StandardStream
    static let strap = "C4:7C:8D:6A:12:34"

    func run() async throws {
        let script = "Tests/Peers/bluez_peer.py"
        guard FileManager.default.fileExists(atPath: script) else { throw InputError("run from the project's folder: \(script) plays BlueZ") }
        signal(SIGPIPE, SIG_IGN)  // a peer that died is an error to report, not a silent exit
        let peer = try BusPeer(script: script)
        try await stopping(peer.stop) { try await measure(peer) }
        try await memory()
    }

    private func measure(_ peer: BusPeer) async throws {
        _ = try peer.command("call AddAdapter [\"hci0\",\"bench\"]")
        _ = try peer.command("call AddHeartRateStrap [\"hci0\",\"\(Self.strap)\",\"Bench strap\",90]")

        // Latency: 200 readings a second, as a room of straps would send them; flapd logs each
        // reading at debug level with its RR interval, which carries the notification's number.
        let paced = max(200, Int(seconds * 200))
        let traced = try await RunningFlapd(bus: peer.address, logLevel: "debug")
        try await stopping(traced.stop) { [self] in
            let flapd = traced
            try await waitUntilNotifying(peer)
            let sent = try await burst(peer, count: paced, intervalMs: 5) { flapd.arrivals.count >= paced }
            let received = flapd.arrivals.times
            let latencies = (1...paced).compactMap { number in received[number].map { $0 - sent[number - 1] } }.sorted()
            guard latencies.count == paced else { throw InputError("\(latencies.count) of \(paced) readings reached flapd") }
            write(
                "BLE notification → reading in flapd, \(paced) at 200/s",
                "p50 \(Self.ms(latencies[latencies.count / 2]))  p99 \(Self.ms(latencies[latencies.count * 99 / 100]))  max \(Self.ms(latencies.last ?? .zero))"
            )
        }

        // Throughput: back to back, flapd at its usual log level; its CPU per reading.
        let flat = max(5000, Int(seconds * 5000))
        let quiet = try await RunningFlapd(bus: peer.address, logLevel: "info")
        try await stopping(quiet.stop) { [self] in
            let flapd = quiet
            try await waitUntilNotifying(peer)
            let counted = try await flapd.samples()
            let cpuBefore = flapd.cpuSeconds()
            let started = ContinuousClock.now
            var total = counted
            _ = try await burst(peer, count: flat, intervalMs: 0) {
                total = (try? await flapd.samples()) ?? total
                return total - counted >= flat
            }
            let cpu = flapd.cpuSeconds() - cpuBefore
            let wall = started.duration(to: .now)
            guard total - counted == flat else { throw InputError("\(total - counted) of \(flat) readings reached flapd") }
            write(
                "readings per CPU second of flapd (one core)",
                String(
                    format: "%.0f  (%d back to back: %.0f/s wall clock, %.2f s CPU)", Double(flat) / cpu, flat,
                    Double(flat) / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18), cpu))
        }
    }

    private func waitUntilNotifying(_ peer: BusPeer) async throws {
        for _ in 0..<400 {
            if try peer.command("call StrapState [\"\(Self.strap)\"]").contains("notifying=True") { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw InputError("flapd did not subscribe to the strap's notifications")
    }

    /// Sends `count` notifications and waits until `arrived`; when each left (ns, CLOCK_MONOTONIC).
    private func burst(_ peer: BusPeer, count: Int, intervalMs: Int, arrived: () async -> Bool) async throws -> [Int] {
        _ = try peer.command("call StartBurst [\"\(Self.strap)\",\(count),\(intervalMs)]")
        let deadline = ContinuousClock.now + .seconds(Double(count) * Double(max(intervalMs, 1)) / 1000 + 30)
        while await !arrived(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return try JSONSerialization.jsonObject(with: Data(try peer.command("call BurstTimes []").utf8)) as? [Int] ?? []
    }

    /// flapd's resident memory with no heart-rate source, then reading 20 simulated straps.
    private func memory() async throws {
        let flapd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flapd").path
        guard FileManager.default.isExecutableFile(atPath: flapd) else { throw InputError("no flapd beside flapbench at \(flapd)") }
        for (label, sensors) in [
            ("flapd RSS, no heart-rate source", ""), ("flapd RSS, 20 simulated straps", "[[sensor]]\ndriver = \"simulated\"\npeople = 20\n")
        ] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-hr-bench-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try "[[panel]]\ndriver = \"simulated\"\nshow = \"none\"\n[sound]\nenabled = false\n\(sensors)".write(
                toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flapd)
            process.arguments = [
                "--config", dir + "/flapd.toml", "--state-dir", dir + "/state", "--api-port", "0", "--https-port", "0", "--local-api-port", "0",
                "--api-key", "bench"
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .seconds(max(5, seconds * 5)))
            let rss = ServiceBench.rss(process.processIdentifier)
            kill(process.processIdentifier, SIGTERM)
            await Self.wait(for: process)
            write(label, String(format: "%.1f MiB", Double(rss) / 1024))
        }
    }

    /// Waits up to 15 s for `process` to end, then kills it. (Foundation's waitUntilExit spins a
    /// core on Linux while it waits.)
    static func wait(for process: Process) async {
        for _ in 0..<150 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    static func ms(_ nanoseconds: Int) -> String { String(format: "%.2f ms", Double(nanoseconds) / 1e6) }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 52, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}

/// When each numbered reading arrived (CLOCK_MONOTONIC nanoseconds, the peer's clock too).
final class Arrivals: Sendable {
    private let arrived = Mutex<[Int: Int]>([:])

    func record(_ number: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        arrived.withLock { if $0[number] == nil { $0[number] = now.tv_sec * 1_000_000_000 + now.tv_nsec } }
    }

    var count: Int { arrived.withLock { $0.count } }
    var times: [Int: Int] { arrived.withLock { $0 } }
}

/// Runs `body`, then `stop`, whether `body` threw or not: a `defer` that may await.
func stopping<T>(_ stop: () async -> Void, _ body: () async throws -> T) async throws -> T {
    do {
        let result = try await body()
        await stop()
        return result
    } catch {
        await stop()
        throw error
    }
}

/// The flapd beside this flapbench reading the strap on the bus at `bus`, its stderr read as it
/// comes (each `heart rate` debug line timestamped on arrival).
final class RunningFlapd: @unchecked Sendable {
    let arrivals = Arrivals()
    private let process = Process()
    private let directory: String
    private var port = 0

    init(bus: String, logLevel: String) async throws {
        let flapd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flapd").path
        guard FileManager.default.isExecutableFile(atPath: flapd) else { throw InputError("no flapd beside flapbench at \(flapd)") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-hr-\(UUID().uuidString)").path
        process.executableURL = URL(fileURLWithPath: flapd)
        process.arguments = [
            "--simulate", "--sensor", "ble=hci0", "--state-dir", directory, "--api-port", "0", "--https-port", "0", "--local-api-port", "0",
            "--api-key", "bench", "--no-sound", "--log-level", logLevel
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus
        environment["JOURNAL_STREAM"] = nil
        environment["NOTIFY_SOCKET"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let found = Mutex(0)
        let arrivals = arrivals
        Thread.detachNewThread {
            var pending = ""
            while true {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                pending += String(decoding: chunk, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = pending[..<end]
                    if line.contains("heart rate"), let range = line.range(of: "rr=["),
                        let number = Int(line[range.upperBound...].prefix { $0.isNumber })
                    {
                        arrivals.record(number)
                    } else if let range = line.range(of: "api=http://127.0.0.1:"), let port = Int(line[range.upperBound...].prefix { $0.isNumber }) {
                        found.withLock { $0 = port }
                    }
                    pending = String(pending[pending.index(after: end)...])
                }
            }
        }
        for _ in 0..<300 where found.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(50)) }
        port = found.withLock { $0 }
        guard port > 0 else { await stop(); throw InputError("flapd did not start") }
    }

    /// Readings flapd has counted (`flapd_heart_rate_samples_total`).
    func samples() async throws -> Int {
        let data = try await HTTPExchange.send("GET", "http://127.0.0.1:\(port)/metrics").body
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("flapd_heart_rate_samples_total{") }
        return line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
    }

    /// flapd's CPU time so far (user + system, from /proc).
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() async {
        kill(process.processIdentifier, SIGTERM)
        await HeartRateBench.wait(for: process)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// bluez_peer.py, driven through its stdin.
private final class BusPeer {
    let address: String
    private let process = Process()
    private let input = Pipe()
    private let reader: FileHandle
    private var buffered = ""
    private var counter = 0

    init(script: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "/dev/stdin"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        reader = output.fileHandleForReading
        try process.run()
        guard let first = Self.line(from: reader, &buffered), first.hasPrefix("bus ") else {
            throw InputError("bluez_peer.py did not start (is python3-dbusmock installed? `apt install python3-dbusmock`)")
        }
        address = String(first.dropFirst(4))
    }

    func command(_ text: String) throws -> String {
        counter += 1
        input.fileHandleForWriting.write(Data("\(counter) \(text)\n".utf8))
        while let answer = Self.line(from: reader, &buffered) {
            if answer == "ok \(counter)" { return "" }
            if answer.hasPrefix("ok \(counter) ") { return String(answer.dropFirst("ok \(counter) ".count)) }
            if answer.hasPrefix("error \(counter) ") { throw InputError("\(text): \(answer)") }
        }
        throw InputError("bluez_peer.py ended")
    }

    private static func line(from reader: FileHandle, _ buffered: inout String) -> String? {
        while !buffered.contains("\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { return nil }
            buffered += String(decoding: chunk, as: UTF8.self)
        }
        guard let end = buffered.firstIndex(of: "\n") else { return nil }
        defer { buffered = String(buffered[buffered.index(after: end)...]) }
        return String(buffered[..<end])
    }

    func stop() async {
        _ = try? command("quit")
        await HeartRateBench.wait(for: process)
    }
}
