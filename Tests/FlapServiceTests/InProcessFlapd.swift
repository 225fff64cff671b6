import ArgumentParser
import FlapClocks
import FlapService
import FlapTime
import Foundation
import Logging
import Synchronization
import TestSupport

/// flapd in the test's own process: the appliance flapd's command makes, from the same flags
/// (`--simulate`, a state directory of its own, free ports), run until ``stop()`` as SIGTERM
/// would stop it. For tests of what flapd does rather than of the process (signals, systemd,
/// exit statuses, file modes), which keep ``FlapdProcess``. Its log is kept in ``log``.
final class InProcessFlapd: RunningFlapd {
    let appliance: Appliance
    let stateDirectory: String
    let apiPort: Int
    let httpsPort: Int
    let localAPIPort: Int
    let apiKey: String
    /// Every line flapd logged, as it would have written them to stderr.
    let log: Log
    /// The clock its time runs on, when it is virtual: it moves only when the test moves it.
    let clock: ManualClock?
    /// Its time: the virtual clock's, or the real one.
    private let time: ApplianceTime
    /// Its wall clock now: on a virtual clock, the time it started plus how far the clock has moved.
    var now: Date { time.now() }
    private let running: Task<Void, any Error>

    /// Which clock it runs on.
    enum Time {
        /// A ``ManualClock`` the test moves: the wall clock starts at the real time and moves with it.
        case virtual
        /// The real clocks, for a panel whose device keeps real time (a controller on a pseudo-terminal).
        case real
    }

    final class Log: Sendable {
        private let lines = Mutex("")
        func append(_ line: String) { lines.withLock { $0 += line } }
        var text: String { lines.withLock { $0 } }
    }

    /// Ports of their own below the ephemeral range (``TestPorts``), unless the test names some.
    static func ports() throws -> [String] {
        ["--api-port", "\(try TestPorts.free())", "--https-port", "\(try TestPorts.free())", "--local-api-port", "\(try TestPorts.free())"]
    }

    static func start(
        stateDirectory: String? = nil, apiKey: String? = "test-key", arguments: [String] = [], time: Time = .virtual,
        devices: String? = nil
    ) async throws -> InProcessFlapd {
        let state = stateDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        // With no key given, flapd makes its own in the state directory, as a fresh install does.
        let key = apiKey.map { ["--api-key", $0] } ?? []
        var attempt = 0
        while true {
            attempt += 1
            let command = try Flapd.parse(["--simulate", "--state-dir", state] + (try Self.ports()) + key + arguments)
            var configuration = try command.flapdConfiguration()
            // Drawn nowhere: the test's own output is not the panel's terminal.
            for index in configuration.panels.indices { configuration.panels[index].show = .none }
            if let devices { configuration.devices = devices }
            let log = Log()
            let level = Logger.Level(rawValue: configuration.logLevel) ?? .info
            let logger = Logger(label: "flapd") { JournalLogHandler(label: $0, level: level, environment: [:], write: log.append) }
            let clock = time == .virtual ? ManualClock() : nil
            let applianceTime: ApplianceTime = clock.map { .following($0, from: Date()) } ?? .real
            let appliance = try await Appliance(configuration: configuration, drawInTerminal: false, time: applianceTime, logger: logger)
            if let clock { moveWhileWaiting { await clock.advance(by: $0) } }
            let (ended, end) = AsyncStream.makeStream(of: Void.self)
            let running = Task {
                defer {
                    log.append("(flapd has stopped)\n")
                    end.finish()
                }
                try await appliance.run(signals: [])
            }
            if let ports = await boundOrEnded(appliance, ended) {
                let madeKey = try? String(contentsOfFile: state + "/api-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                return InProcessFlapd(
                    appliance: appliance, state: state, ports: (ports.native, ports.https, ports.local), apiKey: apiKey ?? madeKey ?? "",
                    log: log, clock: clock, time: applianceTime, running: running)
            }
            await appliance.stop()
            let outcome = await running.result
            // A port chosen free may be taken by another test before flapd listens: new ones.
            if attempt < 3, case .failure(let error) = outcome, "\(error)".contains("the port is taken") { continue }
            throw PeerError("flapd did not bind its ports (\(outcome)):\n\(log.text)")
        }
    }

    /// The ports once every server listens, or nil when flapd ended first (a port taken).
    private static func boundOrEnded(_ appliance: Appliance, _ ended: AsyncStream<Void>) async -> BoundPorts.Ports? {
        await withTaskGroup(of: BoundPorts.Ports?.self) { group in
            group.addTask { await appliance.ports.waitUntilBound() }
            group.addTask {
                // Ends when flapd does, or when this wait is cancelled (the ports were bound).
                for await _ in ended {}
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private init(
        appliance: Appliance, state: String, ports: (Int, Int, Int), apiKey: String, log: Log, clock: ManualClock?,
        time: ApplianceTime, running: Task<Void, any Error>
    ) {
        self.clock = clock
        self.time = time
        self.appliance = appliance
        stateDirectory = state
        (apiPort, httpsPort, localAPIPort) = ports
        self.apiKey = apiKey
        self.log = log
        self.running = running
    }

    var said: String { log.text }

    /// Whether it is still running (it has not stopped by itself).
    var isRunning: Bool { !log.text.hasSuffix("(flapd has stopped)\n") }

    /// Stops it as SIGTERM would, and waits until every service has.
    func stop() async {
        await appliance.stop()
        _ = try? await running.value
    }
}
