import FlapCore
import FlapEndpoints
import FlapMembers
import FlapMessaging
import FlapMetrics
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import FlapHTTP

/// Who may call a route is declared beside it: every `/v1` route flapd serves is held to its
/// declaration twice, by what a member, the viewer key and a request with no credentials actually
/// get, and by the `x-flapd-access` its operation carries in the OpenAPI description.
@Suite(.timeLimit(.minutes(3))) struct RouteAccessTests {
    static let key = "owner-key", viewerKey = "viewer-key"

    @Test func everyRouteAnswersItsCallersAsDeclaredAndAsDescribed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = try Inbox(path: folder.appendingPathComponent("inbox.sqlite").path)
        var parts = APIParts(
            intake: MessageIntake(inbox: inbox, boardSize: .flagship, now: { Date() }), panels: RestingPanel(), sound: RestingPanel(),
            switches: RestingPanel(), calibration: RestingPanel(),
            modules: RestingPanel(), metrics: FlapMetrics(), version: "test")
        parts.viewerKey = Self.viewerKey
        let (member, _) = try await parts.access.addMember(name: "Ana", sender: "ana")
        let memberKey = try #require(await parts.access.newKey(for: member.id))
        let declared = DeclaredRoutes()
        let router = NativeAPI(parts, apiKey: Self.key).router(declaring: declared)
        let routes = declared.all
        #expect(routes.count > 50, "the routes were not declared: \(routes.count)")

        let description = try JSONSerialization.jsonObject(with: Data(PackageResources.openapi_json)) as? [String: Any]
        let paths = try #require(description?["paths"] as? [String: [String: Any]])
        for route in routes {
            let operation = paths[route.endpoint.path]?[route.endpoint.method.rawValue.lowercased()] as? [String: Any]
            #expect(
                operation?["x-flapd-access"] as? String == route.access.name,
                "\(route.endpoint) is declared \(route.access.name); the description says \(String(describing: operation?["x-flapd-access"]))")
        }

        let callers: [(String?, Caller?)] = [(memberKey, .member(id: member.id, sender: "ana")), (Self.viewerKey, .viewer), (nil, nil)]
        try await Application(router: router).test(.router) { client in
            for route in routes {
                let path = route.endpoint.request(route.endpoint.parameters.map { _ in "nobody" }).target
                for (key, caller) in callers {
                    let admitted = route.access.admits(caller)
                    // The event stream never ends: only a refusal of it can be read whole.
                    if admitted, route.endpoint == .events { continue }
                    var headers = HTTPFields()
                    if let key { headers[.authorization] = "Bearer \(key)" }
                    let response = try await client.execute(uri: path, method: route.endpoint.method, headers: headers, body: ByteBuffer())
                    let error =
                        (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])?["error"] as? String
                    let refused =
                        switch caller {
                        case nil: response.status == .unauthorized
                        case .viewer: response.status == .forbidden && error == RouteAccess.viewerRefusal(routes)
                        default: response.status == .forbidden && error == RouteAccess.memberRefusal(routes)
                        }
                    #expect(
                        refused == !admitted,
                        "\(route.endpoint) as \(caller.map { "\($0)" } ?? "nobody"): \(response.status.code) \(error ?? ""), declared \(route.access.name)"
                    )
                }
            }
        }
    }

    /// docs/api.md's table of who may call what is the routes' own declarations, row for row.
    @Test func theDocsTableOfWhoMayCallWhatIsTheRouters() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = try Inbox(path: folder.appendingPathComponent("inbox.sqlite").path)
        let parts = APIParts(
            intake: MessageIntake(inbox: inbox, boardSize: .flagship, now: { Date() }), panels: RestingPanel(), sound: RestingPanel(),
            switches: RestingPanel(), calibration: RestingPanel(), modules: RestingPanel(), metrics: FlapMetrics(),
            version: "test")
        let declared = DeclaredRoutes()
        _ = NativeAPI(parts, apiKey: Self.key).router(declaring: declared)
        let docs = try String(contentsOf: Self.packageRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
        let (start, end) = ("<!-- who may call what: written from the routes' declarations -->\n", "\n<!-- end of who may call what -->")
        let table = docs.range(of: start).flatMap { opening in
            docs.range(of: end, range: opening.upperBound..<docs.endIndex).map { String(docs[opening.upperBound..<$0.lowerBound]) }
        }
        #expect(table == declared.accessTable, "docs/api.md's table should read, between its two markers:\n\(declared.accessTable)")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
