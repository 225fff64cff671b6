import FlapHeartRate
import FlapMetrics
import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `flapctl bench --heart-rate`: a Bluetooth LE strap's notifications through a real
/// dbus-daemon into the heart-rate hub as flapd composes it (BlueZ played by python-dbusmock,
/// Tests/Peers/bluez_peer.py, which needs Debian's python3-dbusmock): notification → reading
/// latency and readings per CPU second; then flapd's memory reading 20 simulated straps.
struct HeartRateBench {
    let seconds: Double
    let output: StandardStream
    static let strap = "C4:7C:8D:6A:12:34"

    func run() async throws {
        let script = "Tests/Peers/bluez_peer.py"
        guard FileManager.default.fileExists(atPath: script) else { throw InputError("run from the project's folder: \(script) plays BlueZ") }
        signal(SIGPIPE, SIG_IGN)  // a peer that died is an error to report, not a silent exit
        let peer = try BusPeer(script: script)
        defer { peer.stop() }
        _ = try peer.command("call AddAdapter [\"hci0\",\"bench\"]")
        _ = try peer.command("call AddHeartRateStrap [\"hci0\",\"\(Self.strap)\",\"Bench strap\",90]")
        var settings = SensorSettings(driver: "ble", device: "hci0")
        setenv("DBUS_SYSTEM_BUS_ADDRESS", peer.address, 1)
        let metrics = FlapMetrics()
        let hub = HeartRateHub(sources: [(settings, try HeartRateSources.make(settings))], metrics: metrics, logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        settings.straps = []
        let readings = await hub.readings()
        let running = Task { await hub.run() }
        defer { running.cancel() }
        let arrivals = Arrivals()
        let listening = Task {
            for await sample in readings { arrivals.record(Int(sample.rrIntervals.first ?? 0)) }
        }
        defer { listening.cancel() }
        for _ in 0..<200 where try !peer.command("call StrapState [\"\(Self.strap)\"]").contains("notifying=True") {
            try await Task.sleep(for: .milliseconds(50))
        }

        // Latency: 200 readings a second, as a room of straps would send them.
        let paced = max(200, Int(seconds * 200))
        let latencies = try await burst(peer, arrivals, count: paced, intervalMs: 5).sorted()
        write("BLE notification → reading, \(paced) at 200/s", "p50 \(Self.ms(latencies[latencies.count / 2]))  p99 \(Self.ms(latencies[latencies.count * 99 / 100]))  max \(Self.ms(latencies.last!))")

        // Throughput: back to back; the CPU this process spent per reading. Counted by the hub
        // (a listener as slow as this one is handed only the newest readings).
        let flat = max(5000, Int(seconds * 5000))
        let counted = Self.samples(metrics)
        let cpuBefore = Self.cpuSeconds()
        let started = ContinuousClock.now
        _ = try peer.command("call StartBurst [\"\(Self.strap)\",\(flat),0]")
        for _ in 0..<600 where Self.samples(metrics) - counted < flat { try await Task.sleep(for: .milliseconds(50)) }
        let cpu = Self.cpuSeconds() - cpuBefore
        guard Self.samples(metrics) - counted == flat else { throw InputError("\(Self.samples(metrics) - counted) of \(flat) readings arrived") }
        let wall = started.duration(to: .now)
        write("readings per CPU second (one core)", String(format: "%.0f  (%d readings back to back: %.0f/s wall clock, %.2f s CPU)", Double(flat) / cpu, flat,
                                                           Double(flat) / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18), cpu))
        running.cancel()
        try await memory()
    }

    /// Sends `count` notifications; each one's latency in nanoseconds.
    private func burst(_ peer: BusPeer, _ arrivals: Arrivals, count: Int, intervalMs: Int) async throws -> [Int] {
        arrivals.reset()
        _ = try peer.command("call StartBurst [\"\(Self.strap)\",\(count),\(intervalMs)]")
        let deadline = ContinuousClock.now + .seconds(Double(count) * Double(max(intervalMs, 1)) / 1000 + 30)
        while arrivals.count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let sent = try JSONSerialization.jsonObject(with: Data(try peer.command("call BurstTimes []").utf8)) as? [Int] ?? []
        let received = arrivals.times
        guard received.count == count, sent.count == count else { throw InputError("\(received.count) of \(count) readings arrived") }
        return (1...count).compactMap { number in received[number].map { $0 - sent[number - 1] } }
    }

    /// flapd's resident memory with no heart-rate source, then reading 20 simulated straps.
    private func memory() async throws {
        let flapd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flapd").path
        guard FileManager.default.isExecutableFile(atPath: flapd) else { throw InputError("no flapd beside flapctl at \(flapd)") }
        for (label, sensors) in [("flapd RSS, no heart-rate source", ""), ("flapd RSS, 20 simulated straps", "[[sensor]]\ndriver = \"simulated\"\npeople = 20\n")] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-hr-bench-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try "[[panel]]\ndriver = \"simulated\"\nshow = \"none\"\n[sound]\nenabled = false\n\(sensors)".write(toFile: dir + "/flapd.toml", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: flapd)
            process.arguments = ["--config", dir + "/flapd.toml", "--state-dir", dir + "/state", "--api-port", "0", "--local-api-port", "0", "--api-key", "bench"]
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

    /// Readings the hub has counted.
    static func samples(_ metrics: FlapMetrics) -> Int {
        let line = metrics.exposition().split(separator: "\n").first { $0.hasPrefix("flapd_heart_rate_samples_total{") }
        return line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
    }

    /// Waits up to 15 s for `process` to end, then kills it. (Foundation's waitUntilExit spins a
    /// core on Linux while it waits.)
    static func wait(for process: Process) async {
        for _ in 0..<150 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func ms(_ nanoseconds: Int) -> String { String(format: "%.2f ms", Double(nanoseconds) / 1e6) }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}

/// When each numbered reading arrived (CLOCK_MONOTONIC nanoseconds, the peer's clock too).
private final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived: [Int: Int] = [:]

    func record(_ number: Int) {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        lock.withLock { arrived[number] = now.tv_sec * 1_000_000_000 + now.tv_nsec }
    }

    func reset() { lock.withLock { arrived = [:] } }
    var count: Int { lock.withLock { arrived.count } }
    var times: [Int: Int] { lock.withLock { arrived } }
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
        let end = buffered.firstIndex(of: "\n")!
        defer { buffered = String(buffered[buffered.index(after: end)...]) }
        return String(buffered[..<end])
    }

    func stop() {
        _ = try? command("quit")
        for _ in 0..<150 where process.isRunning { usleep(100_000) }
        if process.isRunning { process.terminate() }
    }
}
