import FlapCore
import FlapEndpoints
import FlapHTTP
import FlapMessaging
import FlapMetrics
import Foundation
import Hummingbird
import TestSupport
import Testing

/// The OpenAPI description validates (openapi-spec-validator), and it, the endpoint table and flapd's router agree: every endpoint flapd serves under `/v1`, `/mcp`,
/// `/healthz` and `/metrics` is described, and everything described is served.
@Suite struct OpenAPIRoutesTests {
    /// Never asked anything: the router is only walked.
    struct NoPanels: PanelsQuery, SoundControl, CalibrationControl, BoardSwitches, ModuleCommands {
        func panels() async -> [PanelView] { [] }
        func soundStatus() async -> (state: String, reason: String?) { ("disabled", nil) }
        func sound() async -> SoundView {
            SoundView(enabled: false, state: "disabled", reason: nil, mute: false, volume: 0, quietHours: nil, device: "none")
        }
        func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView { await sound() }
        func clackSample() async -> ClackSample { .synthesized() }
        func calibration(panel: String) async -> Calibrated? { nil }
        func calibrate(panel: String, row: Int, column: Int, offsetSteps: Int) async throws -> Calibrated { throw CancellationError() }
        func switches() async -> SwitchesView { SwitchesView(paused: false, transition: "cascade") }
        func setSwitches(paused: Bool?, transition: TransitionStrategy?) async throws -> SwitchesView { await switches() }
        func clearEverySlot() async throws -> Int { 0 }
    }

    static func servedRoutes() throws -> Set<String> {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let inbox = try Inbox(path: dir.appendingPathComponent("inbox.sqlite").path)
        let api = NativeAPI(
            APIParts(
                intake: MessageIntake(inbox: inbox, boardSize: .flagship, now: { Date() }), panels: NoPanels(), sound: NoPanels(),
                switches: NoPanels(), calibration: NoPanels(),
                modules: NoPanels(), metrics: FlapMetrics(), version: "test"), apiKey: "k")
        let router = api.router()
        return Set(
            router.routes.compactMap { route -> String? in
                let path =
                    "/"
                    + route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(
                        separator: "/")
                guard path.hasPrefix("/v1/") || ["/healthz", "/metrics", "/mcp"].contains(path) else { return nil }
                return "\(route.method.rawValue) \(path)"
            })
    }

    /// "METHOD /path" for every operation the document describes.
    static func describedRoutes() throws -> Set<String> {
        let url = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        #expect(document["openapi"] as? String == "3.1.0")
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        return Set(paths.flatMap { path, operations in operations.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
    }

    @Test func theDescriptionValidates() async throws {
        let file = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json").path
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("openapi_check.py").path, file])
        #expect(result.status == 0 && result.stdoutText == "valid\n", "\(result.stdoutText)\(result.stderrText)")
    }

    /// The table flapctl and the MCP tools call by is what the router serves, endpoint for endpoint.
    @Test func theRouterServesExactlyTheEndpointTable() throws {
        let served = try Self.servedRoutes(), table = Set(Endpoint.all.map(\.description))
        #expect(served.subtracting(table).sorted() == [], "served by flapd but missing from the endpoint table")
        #expect(table.subtracting(served).sorted() == [], "in the endpoint table but not served by flapd")
    }

    @Test func theDescriptionNamesExactlyTheEndpointsTheRouterServes() throws {
        let served = try Self.servedRoutes(), described = try Self.describedRoutes()
        #expect(served.subtracting(described).sorted() == [], "served by flapd but missing from openapi.json")
        #expect(described.subtracting(served).sorted() == [], "in openapi.json but not served by flapd")
        #expect(served.count > 30)
    }

    /// Each operation's `operationId` is its endpoint's name in the table (the web page's
    /// `endpoints.js` calls it by that name), and no two share one.
    @Test func eachOperationIsNamedAsTheTableNamesIt() throws {
        let url = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for endpoint in Endpoint.all {
            let operation = paths[endpoint.path]?[endpoint.method.rawValue.lowercased()] as? [String: Any]
            #expect(operation?["operationId"] as? String == endpoint.name, "\(endpoint)")
        }
        #expect(Set(Endpoint.all.map(\.name)).count == Endpoint.all.count, "two endpoints share a name")
    }

    /// What each endpoint takes and answers, as the table declares it, is what openapi.json
    /// describes: its body's schema, and its successful answers' schema or media type.
    @Test func eachOperationTakesAndAnswersWhatTheTableSays() throws {
        let url = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        func reference(_ content: Any?) -> String? {
            ((content as? [String: Any])?["schema"] as? [String: Any])?["$ref"] as? String
        }
        for endpoint in Endpoint.all {
            let operation = try #require(paths[endpoint.path]?[endpoint.method.rawValue.lowercased()] as? [String: Any], "\(endpoint)")
            let body = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
            #expect(reference(body) == endpoint.body.map { "#/components/schemas/\($0)" }, "\(endpoint): its body")
            #expect((operation["requestBody"] == nil) == (endpoint.body == nil), "\(endpoint): whether it takes a body")
            let answers = ((operation["responses"] as? [String: Any]) ?? [:]).filter { $0.key.hasPrefix("2") }
                .compactMap { ($0.value as? [String: Any])?["content"] as? [String: Any] }
            switch endpoint.answer {
            case .json(let schema):
                #expect(schemas[schema] != nil, "\(endpoint): no schema \(schema)")
                let described = answers.compactMap { $0["application/json"] }.map(reference)
                #expect(!described.isEmpty && described.allSatisfy { $0 == "#/components/schemas/\(schema)" }, "\(endpoint): its answer")
            case .media(let type):
                #expect(answers.contains { $0[type] != nil } && answers.allSatisfy { $0["application/json"] == nil }, "\(endpoint): its answer")
            case nil:
                #expect(answers.isEmpty, "\(endpoint) answers with a body")
            }
        }
    }
}
