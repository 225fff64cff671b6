import Foundation

/// The fake Vestaboard of Tests/Peers/fake_vestaboard.py, running, with its switches.
public final class FakeVestaboard: Sendable {
    public let port: Int
    public let localKey = "local-key", token = "cloud-token", readWriteKey = "rw-key", enablementToken = "enablement-token"
    private let process: ChildProcess
    private var control: HTTPClient { HTTPClient(base: base) }

    public var base: String { "http://127.0.0.1:\(port)" }
    public var url: URL { URL(string: base + "/")! }

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    /// `model`: `flagship` (6×22) or `note` (3×15); `size` (`3x30`) overrides its size, as the
    /// cloud sees an array of Notes.
    public static func start(model: String = "flagship", size: String? = nil) async throws -> FakeVestaboard {
        let process = try ChildProcess(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("fake_vestaboard.py").path, "--model", model] + (size.map { ["--size", $0] } ?? []))
        var port: Int?
        _ = try await eventually(every: .milliseconds(10)) {
            if let line = process.stdout.split(separator: "\n").first, line.hasPrefix("listening ") { port = Int(line.dropFirst(10)) }
            if port == nil, let status = process.poll() { throw PeerError("the fake Vestaboard exited with \(status):\n\(process.stderr)") }
            return port != nil
        }
        if let port { return FakeVestaboard(port: port, process: process) }
        await process.stop()
        throw PeerError("the fake Vestaboard did not start:\n\(process.stderr)")
    }

    public func stop() async { await process.stop() }

    /// Faults for the next requests, in order: "401", "400", "403", "500", "429:SECONDS", "slow:SECONDS", "drop".
    public func fail(_ faults: String...) async throws {
        _ = try await control.request("POST", "/_control/faults", body: try JSONSerialization.data(withJSONObject: ["faults": faults]))
    }

    /// Writes the board as someone else would.
    public func write(_ rows: [[Int]]) async throws {
        _ = try await control.request("POST", "/_control/board", body: try JSONSerialization.data(withJSONObject: ["rows": rows]))
    }

    public struct Request: Sendable {
        public var api: String
        public var method: String
        public var body: String
        public var status: String
        public var shown: Bool
    }

    /// Every request the board's APIs got, and the board now.
    public func log() async throws -> (requests: [Request], board: [[Int]]) {
        let object = try await control.get("/_control/log").object
        let requests = (object["log"] as? [[String: Any]] ?? []).map { entry in
            Request(
                api: entry["api"] as? String ?? "", method: entry["method"] as? String ?? "",
                body: (entry["body"]).flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed, .sortedKeys]) }
                    .map { String(decoding: $0, as: UTF8.self) } ?? "",
                status: "\(entry["status"] ?? "")", shown: entry["shown"] as? Bool ?? false)
        }
        return (requests, object["board"] as? [[Int]] ?? [])
    }

    /// The writes (POSTs) the board got.
    public func writes() async throws -> [Request] { try await log().requests.filter { $0.method == "POST" } }
}
