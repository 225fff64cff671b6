import Foundation

/// A real flapd, started from the built binary with a state directory of its own and free
/// ports, for tests that talk to it over HTTP or kill it.
public final class FlapdProcess: RunningFlapd {
    public let process: ChildProcess
    public let stateDirectory: String
    public let apiPort: Int
    public let httpsPort: Int
    public let localAPIPort: Int
    public let apiKey: String

    /// Starts flapd --simulate with `arguments` added, and waits until it is ready. Without
    /// `simulate`, the configured drivers run (a heart-rate sensor on a mocked BlueZ), and
    /// `arguments` must name a configuration (`--config`).
    public static func start(
        stateDirectory: String? = nil, apiKey: String = "test-key", arguments: [String] = [],
        environment extra: [String: String] = [:], simulate: Bool = true
    ) async throws -> FlapdProcess {
        let state = stateDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("flapd-\(UUID().uuidString)").path
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        environment["NOTIFY_SOCKET"] = nil
        environment["JOURNAL_STREAM"] = nil
        var attempt = 0
        var started: (process: ChildProcess, log: String)?
        while started == nil {
            attempt += 1
            let process = try ChildProcess(
                ProcessRunner.builtProduct("flapd"),
                (simulate ? ["--simulate"] : []) + [
                    "--state-dir", state, "--api-port", "\(try TestPorts.free())", "--https-port", "\(try TestPorts.free())",
                    "--local-api-port", "\(try TestPorts.free())", "--api-key", apiKey
                ] + arguments,
                environment: environment)
            do {
                // Both lines follow the ports' binding, in either order.
                _ = try await process.waitForLog("INFO ready")
                started = (process, try await process.waitForLog(" running api="))
            } catch {
                await process.stop()
                // A port chosen free may be taken by another test before flapd listens: new ones.
                guard attempt < 3, (process.stderr + process.stdout).contains("the port is taken") else { throw error }
            }
        }
        guard let (process, log) = started else { throw PeerError("flapd did not start") }
        /// The port of the address after `marker` (`api=http://ADDRESS:PORT`).
        func port(after marker: String) -> Int? {
            guard let range = log.range(of: marker) else { return nil }
            let address = log[range.upperBound...].prefix { $0 != "/" && $0 != " " }
            return address.split(separator: ":").last.flatMap { Int($0) }
        }
        guard let api = port(after: " api=http://"), let https = port(after: "https=https://"), let local = port(after: "local_api=http://") else {
            await process.stop()
            throw PeerError("flapd did not say its ports:\n\(log)")
        }
        return FlapdProcess(process: process, stateDirectory: state, apiPort: api, httpsPort: https, localAPIPort: local, apiKey: apiKey)
    }

    private init(process: ChildProcess, stateDirectory: String, apiPort: Int, httpsPort: Int, localAPIPort: Int, apiKey: String) {
        self.process = process
        self.stateDirectory = stateDirectory
        self.apiPort = apiPort
        self.httpsPort = httpsPort
        self.localAPIPort = localAPIPort
        self.apiKey = apiKey
    }

    /// Everything it wrote, stderr then stdout.
    public var said: String { process.stderr + process.stdout }

    public func stop() async { await process.stop() }

    /// Asks flapd to stop as systemd does (SIGTERM) and waits for its exit status: nil only
    /// for a hang (a stop takes well under a second alone, but on two busy cores beside forty
    /// other flapds it has taken over 30 s).
    public func terminate() async -> Int32? {
        process.signal(SIGTERM)
        return await process.wait(patience: .seconds(120))
    }
}
