import Foundation

/// The web server of Tests/Peers/content_server.py, running on 127.0.0.1: what each path answers
/// is set by the test, and every request is logged.
public final class ContentServer: Sendable {
    public let port: Int
    private let process: ChildProcess
    private var control: HTTPClient { HTTPClient(base: base) }

    public var base: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, process: ChildProcess) {
        self.port = port
        self.process = process
    }

    public static func start() async throws -> ContentServer {
        let process = try ChildProcess(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("content_server.py").path])
        var port: Int?
        _ = try await eventually(every: .milliseconds(10)) {
            if let line = process.stdout.split(separator: "\n").first, line.hasPrefix("listening ") { port = Int(line.dropFirst(10)) }
            if port == nil, let status = process.poll() { throw PeerError("the content server exited with \(status):\n\(process.stderr)") }
            return port != nil
        }
        if let port { return ContentServer(port: port, process: process) }
        await process.stop()
        throw PeerError("the content server did not start:\n\(process.stderr)")
    }

    public func stop() async { await process.stop() }

    /// What GET `path` answers from now on. `mode`: normal, hang (never answers) or drop (closes unanswered).
    /// `contentEncoding`: a Content-Encoding header sent whatever the request asked for.
    public func route(
        _ path: String, status: Int = 200, body: Data = Data(), contentType: String = "application/octet-stream",
        etag: String? = nil, lastModified: String? = nil, mode: String = "normal", retryAfter: Int? = nil,
        contentEncoding: String? = nil
    ) async throws {
        var fields: [String: Any] = [
            "path": path, "status": status, "bodyBase64": body.base64EncodedString(), "contentType": contentType, "mode": mode
        ]
        if let contentEncoding { fields["contentEncoding"] = contentEncoding }
        if let etag { fields["etag"] = etag }
        if let lastModified { fields["lastModified"] = lastModified }
        if let retryAfter { fields["retryAfter"] = retryAfter }
        let reply = try await control.request("POST", "/_control/route", body: try JSONSerialization.data(withJSONObject: fields))
        guard reply.status == 204 else { throw PeerError("the content server refused a route: \(reply.status) \(reply.text)") }
    }

    public struct Request: Sendable {
        public var path: String
        public var status: Int
        public var headers: [String: String]

        /// A header by name, whatever its case.
        public func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    /// Every request to a route, in order.
    public func requests(_ path: String? = nil) async throws -> [Request] {
        let object = try await control.request("GET", "/_control/log").object
        return (object["log"] as? [[String: Any]] ?? []).map {
            Request(path: $0["path"] as? String ?? "", status: $0["status"] as? Int ?? 0, headers: $0["headers"] as? [String: String] ?? [:])
        }.filter { path == nil || $0.path == path }
    }
}
