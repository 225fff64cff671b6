import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real HTTP client (URLSession, libcurl underneath) for tests against a running server.
public struct HTTPClient: Sendable {
    public var base: String
    public var headers: [String: String]

    public init(base: String, headers: [String: String] = [:]) {
        self.base = base
        self.headers = headers
    }

    /// A session that keeps no cookies: the test sends its own. URLSession's shared store would
    /// add those another test's flapd set (cookies are per host, not per port) over these.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
        public var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        public var object: [String: Any] { (json as? [String: Any]) ?? [:] }
        /// The `error` of a JSON error answer, else the body.
        public var error: String { object["error"] as? String ?? text }
    }

    public func request(_ method: String, _ path: String, body: Data? = nil, headers extra: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = 30
        for (k, v) in headers.merging(extra, uniquingKeysWith: { $1 }) { request.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (k, v) in http.allHeaderFields { fields[String(describing: k).lowercased()] = String(describing: v) }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    public func get(_ path: String) async throws -> Reply { try await request("GET", path) }

    public func post(_ path: String, json object: [String: Any]) async throws -> Reply {
        try await request("POST", path, body: try JSONSerialization.data(withJSONObject: object), headers: ["Content-Type": "application/json"])
    }

    public func delete(_ path: String) async throws -> Reply { try await request("DELETE", path) }

    public func postJSON(_ path: String, _ json: String) async throws -> Reply {
        try await request("POST", path, body: Data(json.utf8), headers: ["Content-Type": "application/json"])
    }
}
