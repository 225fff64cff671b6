import FlapCore
import FlapHTTP
import FlapMessaging
import FlapMetrics
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// flapd's native API answered in this process by its own router, through Hummingbird's test
/// client: no socket, no child process. For what a route answers (statuses, bodies, the key's
/// rules, the inbox behind them), where starting a flapd (its drivers, ports and start-up) adds
/// nothing; what needs the running service (motion, the HTTP server's own limits, curl as the
/// client) stays with `FlapdProcess`. Over a real inbox in a folder of its own and one blank
/// Flagship panel at rest.
struct RoutedAPI {
    static let key = "test-key"
    let api: NativeAPI

    init(rules: SenderRules = SenderRules(), zone: ZoneRules? = nil) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let inbox = try Inbox(path: folder.appendingPathComponent("inbox.sqlite").path, rules: rules)
        var intake = MessageIntake(inbox: inbox, boardSize: .flagship, now: { Date() })
        intake.localProps = zone.map(LocalProps.init)
        // Counted as flapd counts them (FlapService's adapter), so `/metrics` answers as it does.
        let metrics = FlapMetrics()
        intake.verdicts = { verdict in
            switch verdict {
            case .accepted(let id, let source): metrics.accepted(id: id, source: source.rawValue)
            case .rejected(let source, let reason): metrics.rejected(source: source.rawValue, reason: reason.rawValue)
            }
        }
        api = NativeAPI(
            APIParts(
                intake: intake, panels: RestingPanel(), sound: RestingPanel(), switches: RestingPanel(), calibration: RestingPanel(),
                modules: RestingPanel(), metrics: metrics, version: "test"), apiKey: Self.key)
    }

    /// Runs `body` with a client of the router; the key is sent unless `key` says otherwise.
    func run(_ body: @Sendable (Client) async throws -> Void) async throws {
        try await Application(router: api.router()).test(.router) { client in try await body(Client(client: client)) }
    }

    struct Client: Sendable {
        let client: any TestClientProtocol

        func request(
            _ method: HTTPRequest.Method, _ path: String, json: String? = nil, key: String? = RoutedAPI.key,
            headers: HTTPFields = [:]
        ) async throws -> Answer {
            var fields = headers
            if let key { fields[.authorization] = "Bearer \(key)" }
            if json != nil { fields[.contentType] = "application/json" }
            let response = try await client.execute(
                uri: path, method: method, headers: fields,
                body: json.map { ByteBuffer(string: $0) })
            return Answer(status: response.status.code, headers: response.headers, body: Data(response.body.readableBytesView))
        }

        func get(_ path: String, key: String? = RoutedAPI.key) async throws -> Answer { try await request(.get, path, key: key) }
        func post(_ path: String, _ json: String) async throws -> Answer { try await request(.post, path, json: json) }
    }

    struct Answer: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: Data
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
        var error: String { object["error"] as? String ?? "" }
    }
}

/// One blank Flagship panel at rest, whose flips take as long as the planner says.
struct RestingPanel: PanelsQuery, SoundControl, CalibrationControl, BoardSwitches, ModuleCommands {
    func panels() async -> [PanelView] {
        [PanelView(id: "main", driver: "simulated", drum: "vestaboard", board: Board(size: .flagship), moving: false, messageId: nil)]
    }

    func flipDuration(to board: Board, strategy: TransitionStrategy?) async -> Duration? {
        try? FlipPlanner().plan(from: Board(size: board.size), to: board).duration
    }

    func soundStatus() async -> (state: String, reason: String?) { ("disabled", "no sound in these tests") }
    func sound() async -> SoundView {
        SoundView(enabled: false, state: "disabled", reason: nil, mute: false, volume: 0, quietHours: nil, device: "none")
    }
    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView { await sound() }
    func clackSample() async -> ClackSample { .synthesized() }
    func switches() async -> SwitchesView { SwitchesView(paused: false, transition: "cascade") }
    func setSwitches(paused: Bool?, transition: TransitionStrategy?) async throws -> SwitchesView { await switches() }
    func clearEverySlot() async throws -> Int { 0 }
    func calibration(panel: String) async -> Calibrated? { nil }
    func calibrate(panel: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated { throw CancellationError() }
}
