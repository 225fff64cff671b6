import FlapControl
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `flapbench --service`: starts the flapd beside this flapbench on free ports and measures
/// exec → READY, POST → plan start, requests per second and resident memory.
struct ServiceBench {
    var messages: Int
    var seconds: Double
    var output: StandardStream
    /// A running broker for the MQTT figures (flapd is pointed at it).
    var mqtt: String?

    func run() async throws {
        let flapd = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flapd").path
        guard FileManager.default.isExecutableFile(atPath: flapd) else { throw InputError("no flapd beside flapbench at \(flapd)") }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flapd-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notify = try NotifyListener(path: dir + "/notify")
        let log = dir + "/flapd.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: flapd)
        process.arguments =
            [
                "--simulate", "--state-dir", dir + "/state", "--api-port", "0", "--https-port", "0", "--local-api-port", "0",
                "--api-key", "bench", "--rate-limit", "0", "--log-level", "debug", "--no-sound"
            ]
            + (mqtt.map { ["--mqtt", $0, "--device-id", "bench"] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment["JOURNAL_STREAM"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: log)
        let spawned = ContinuousClock.now
        try process.run()
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        guard notify.waitFor("READY=1", timeout: .seconds(30)) else { throw InputError("flapd did not become ready; its log: \(log)") }
        let ready = spawned.duration(to: .now)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        guard let portRange = text.range(of: "api=http://127.0.0.1:"),
            let port = Int(text[portRange.upperBound...].prefix { $0.isNumber })
        else { throw InputError("flapd did not say its port") }
        let base = "http://127.0.0.1:\(port)"
        write("exec → READY (sd_notify), first start", "\(Self.ms(ready))")
        try await Task.sleep(for: .milliseconds(500))
        write("resident memory, idle", "\(Self.rss(process.processIdentifier) / 1024) MiB")

        // POST → plan start: one message at a time, so each plan start belongs to one request.
        var sent: [String: Double] = [:]
        for i in 0..<messages {
            let id = "bench-\(i)"
            sent[id] = Date().timeIntervalSince1970
            let reply = try await Self.request(
                base, "POST", "/v1/messages", body: #"{"id": "\#(id)", "sender": {"id": "bench\#(i % 5)"}, "text": "message \#(i)"}"#)
            guard reply == 202 else { throw InputError("flapd answered \(reply) to message \(i)") }
        }
        try await Task.sleep(for: .milliseconds(300))
        var latencies: [Double] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") where line.contains("plan started") {
            guard let at = Self.field("at", in: line).flatMap(Double.init), let id = Self.field("message", in: line), let start = sent[id] else {
                continue
            }
            latencies.append(at - start)
        }
        latencies.sort()
        guard !latencies.isEmpty else { throw InputError("no plan starts in flapd's log") }
        func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
        write(
            "POST /v1/messages → plan start, \(latencies.count) messages",
            "p50 \(Self.ms(percentile(0.5))), p99 \(Self.ms(percentile(0.99))), max \(Self.ms(latencies.last ?? .zero))")

        // Restarts, as after a power cut (a state directory of their own, made by the first): one
        // start is too noisy to tell, so the median of five.
        var restarts: [Duration] = []
        for _ in 0..<5 {
            let again = Process()
            again.executableURL = process.executableURL
            again.arguments = process.arguments.map { ["--simulate", "--state-dir", dir + "/restart"] + $0.dropFirst(3) }
            again.environment = environment
            again.standardOutput = FileHandle.nullDevice
            again.standardError = FileHandle.nullDevice
            let started = ContinuousClock.now
            try again.run()
            let ready = notify.waitFor("READY=1", timeout: .seconds(30))
            restarts.append(started.duration(to: .now))
            kill(again.processIdentifier, SIGTERM)
            again.waitUntilExit()
            guard ready else { throw InputError("a restarted flapd did not become ready") }
        }
        restarts.sort()
        write("exec → READY (sd_notify), restart (median of 5)", "\(Self.ms(restarts[2]))")

        // Requests per second with 8 clients on keep-alive connections: reads of the board, then message posts.
        var peak = 0
        let load = HTTPLoad(port: port, clients: 8, seconds: seconds)
        for (name, method, path) in [("GET /v1/board", "GET", "/v1/board"), ("POST /v1/messages", "POST", "/v1/messages")] {
            let pid = process.processIdentifier
            let (count, elapsed, highest) = await withTaskGroup(of: Int.self) { group in
                group.addTask {
                    var highest = 0
                    while !Task.isCancelled {
                        highest = max(highest, Self.rss(pid))
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    return highest
                }
                let (count, elapsed) = await load.run { c, n in
                    (method, path, method == "POST" ? #"{"sender": {"id": "load\#(c)"}, "text": "load \#(c) \#(n)"}"# : nil)
                }
                group.cancelAll()
                return (count, elapsed, await group.next() ?? 0)
            }
            peak = max(peak, highest)
            write("\(name), 8 clients", String(format: "%.0f requests/s", Double(count) / elapsed))
        }
        write("resident memory, after load", "\(peak / 1024) MiB")
        if let mqtt { try await MQTTBench(url: mqtt, api: base, log: log, messages: messages, output: output).run() }
        output.write("reproduce: swift build -c release --static-swift-stdlib && .build/release/flapbench --service\n")
        output.flush()
    }

    static func request(_ base: String, _ method: String, _ path: String, body: String? = nil) async throws -> Int {
        var headers = [("Authorization", "Bearer bench")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await HTTPExchange.send(method, base + path, headers: headers, body: body.map { Data($0.utf8) }).status
    }

    static func field(_ name: String, in line: Substring) -> String? {
        guard let range = line.range(of: " \(name)=") else { return nil }
        return String(line[range.upperBound...].prefix { $0 != " " })
    }

    /// VmRSS in KiB.
    static func rss(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
    static func ms(_ d: Duration) -> String { ms(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18) }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 48, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}

/// A unix datagram socket standing in for systemd's, to time READY.
final class NotifyListener {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count - 1))) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw InputError("cannot bind \(path) (the socket path may be too long)") }
    }

    deinit { close(fd) }

    func waitFor(_ text: String, timeout: Duration) -> Bool {
        var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let end = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < end {
            guard poll(&pollfd, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0, String(decoding: buffer[0..<n], as: UTF8.self).contains(text) { return true }
        }
        return false
    }
}
