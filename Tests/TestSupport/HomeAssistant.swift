import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real Home Assistant core (Tests/Peers/home_assistant_peer.py, in `.build/ha-venv`, which
/// scripts/test makes), onboarded, its MQTT integration on the suite's broker; read and driven
/// through its REST API, its registries and events through its WebSocket API.
public final class HomeAssistant: Sendable {
    public let port: Int
    public let token: String
    public let directory: String
    private let pid: pid_t

    private init(port: Int, token: String, directory: String, pid: pid_t) {
        self.port = port
        self.token = token
        self.directory = directory
        self.pid = pid
    }

    public var base: String { "http://127.0.0.1:\(port)" }
    public var api: HTTPClient { HTTPClient(base: base, headers: ["Authorization": "Bearer \(token)"]) }

    /// The venv's Python: `VESTAWIDGET_HA_VENV`, else `.build/ha-venv`.
    public static var python: String {
        let venv = ProcessInfo.processInfo.environment["VESTAWIDGET_HA_VENV"] ?? PythonPeer.packageRoot.appendingPathComponent(".build/ha-venv").path
        return venv + "/bin/python"
    }

    static var peer: String { PythonPeer.peersDirectory.appendingPathComponent("home_assistant_peer.py").path }

    /// Starts Home Assistant with its MQTT integration on `mqttPort`; up to a few minutes on a loaded machine.
    public static func start(mqttPort: Int) async throws -> HomeAssistant {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw PeerError("Home Assistant's venv is missing (\(python)): scripts/test makes it")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ha-\(UUID().uuidString)").path
        let port = try MosquittoBroker.freePort()
        let result = try await ProcessRunner.run(python, [peer, "start", directory, "\(port)", "\(mqttPort)"])
        guard result.status == 0, let started = try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any],
            let pid = started["pid"] as? Int, let token = started["token"] as? String
        else {
            let log = (try? String(contentsOfFile: directory + "/home-assistant.log", encoding: .utf8)) ?? ""
            throw PeerError("Home Assistant did not start: \(result.stderrText)\n\(log.suffix(4000))")
        }
        return HomeAssistant(port: port, token: token, directory: directory, pid: pid_t(pid))
    }

    /// Stops it (SIGTERM, then SIGKILL after 30 s).
    public func stop() async {
        kill(pid, SIGTERM)
        for _ in 0..<300 {
            if kill(pid, 0) != 0 { return }
            try? await Task.sleep(for: .milliseconds(100))
        }
        kill(pid, SIGKILL)
    }

    /// The state of `entity`, or nil when Home Assistant has none.
    public func state(_ entity: String) async throws -> [String: Any]? {
        let reply = try await api.get("/api/states/\(entity)")
        return reply.status == 200 ? reply.object : nil
    }

    /// Calls a service (`text.set_value`, …) with `data`.
    @discardableResult
    public func call(_ domain: String, _ service: String, _ data: [String: Any]) async throws -> HTTPClient.Reply {
        try await api.post("/api/services/\(domain)/\(service)", json: data)
    }

    public struct Registries: Sendable {
        /// Each entity's `entity_id`, `unique_id`, `platform` and `device_id`.
        public var entities: [[String: String]]
        /// Each device's `id` and `identifiers` (pairs such as `mqtt`, `vestawidget_wall`).
        public var devices: [(id: String, identifiers: [String])]
    }

    /// The entity and device registries.
    public func registries() async throws -> Registries {
        let result = try await ProcessRunner.run(Self.python, [Self.peer, "registry", base, token])
        guard result.status == 0, let answer = try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any] else {
            throw PeerError("the registries could not be read: \(result.stderrText)")
        }
        let entities = (answer["entities"] as? [[String: Any]] ?? []).map { entity in
            entity.compactMapValues { $0 as? String }
        }
        let devices = (answer["devices"] as? [[String: Any]] ?? []).map { device in
            (id: device["id"] as? String ?? "", identifiers: (device["identifiers"] as? [[String]] ?? []).map { $0.joined(separator: ":") })
        }
        return Registries(entities: entities, devices: devices)
    }

    /// Follows `entity`'s new states over the WebSocket: returns once subscribed; each state is
    /// a JSON line in the process's output.
    public func follow(_ entity: String, count: Int) async throws -> ChildProcess {
        let process = try ChildProcess(Self.python, [Self.peer, "events", base, token, entity, "\(count)"])
        _ = try await eventually(every: .milliseconds(50)) {
            if process.poll() != nil { throw PeerError("the event follower stopped: \(process.stderr)") }
            return process.stdout.hasPrefix("subscribed")
        }
        return process
    }
}
