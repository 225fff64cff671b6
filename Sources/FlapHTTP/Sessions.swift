import FlapCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird

/// Signed-in browsers: after `POST /v1/session` with the API key, a random session id in an
/// HttpOnly, SameSite=Strict cookie stands for the key for a week (or until sign-out). Kept in a
/// file beside the key (`sessions.json`, mode 0600) when flapd gives one, so a restart or a power
/// cut does not sign out the phones the app is installed on; otherwise in memory only.
public actor Sessions {
    public static let cookieName = "flapd_session"
    public static let lifetime: TimeInterval = 7 * 86400
    /// At most this many at once; signing in beyond it ends the oldest.
    static let most = 256

    private var expiry: [String: Date] = [:]
    private let now: @Sendable () -> Date
    private let file: String?

    public init(file: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        self.file = file
        // A damaged or missing file signs everyone out, nothing worse.
        if let file, let data = FileManager.default.contents(atPath: file),
           let stored = try? JSONDecoder().decode([String: Double].self, from: data) {
            let current = now()
            expiry = stored.mapValues(Date.init(timeIntervalSince1970:)).filter { $0.value > current }
        }
    }

    /// Writes the open sessions to the file: a new file, then renamed over the old, so a power
    /// cut leaves one or the other whole. A disk that cannot take it leaves them in memory only.
    private func save() {
        guard let file else { return }
        let stored = expiry.mapValues(\.timeIntervalSince1970)
        guard let data = try? JSONEncoder().encode(stored) else { return }
        let partial = file + ".new"
        guard FileManager.default.createFile(atPath: partial, contents: data, attributes: [.posixPermissions: 0o600]) else { return }
        if rename(partial, file) != 0 { unlink(partial) }
    }

    /// A new session; returns its id and when it ends.
    public func open() -> (id: String, expires: Date) {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        let id = Data(bytes).base64EncodedString().replacing("+", with: "-")
            .replacing("/", with: "_").replacing("=", with: "")
        let expires = now().addingTimeInterval(Self.lifetime)
        expiry = expiry.filter { $0.value > now() }
        if expiry.count >= Self.most, let oldest = expiry.min(by: { $0.value < $1.value })?.key { expiry[oldest] = nil }
        expiry[id] = expires
        save()
        return (id, expires)
    }

    /// When `id`'s session ends, if it is open.
    public func expires(_ id: String) -> Date? {
        // Compared in constant time against each: a session id is as good as the key.
        guard let match = expiry.first(where: { secretsMatch(id, $0.key) }) else { return nil }
        guard match.value > now() else {
            expiry[match.key] = nil
            return nil
        }
        return match.value
    }

    public func close(_ id: String) {
        expiry = expiry.filter { !secretsMatch(id, $0.key) }
        save()
    }

    /// The session id in a request's cookies.
    nonisolated static func id(in request: Request) -> String? {
        guard let header = request.headers[.cookie] else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmed
            if pair.hasPrefix(cookieName + "=") { return String(pair.dropFirst(cookieName.count + 1)) }
        }
        return nil
    }

    /// The cookie that opens a session (or, with no id, ends it).
    nonisolated static func cookie(_ id: String?, expires: Date?) -> String {
        guard let id, let expires else { return "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0" }
        return "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(expires.timeIntervalSinceNow.rounded()))"
    }
}

/// Lets a request in with the API key (`Authorization: Bearer`, or as HTTP Basic's password) or a
/// session cookie; with the viewer key, only requests that read the board (``viewerReads``). A
/// request that changes something with a cookie must come from the page itself: its `Origin`
/// (or, where a browser sends none, `Sec-Fetch-Site: same-origin`) must be this server's, so
/// another site cannot make a signed-in browser act.
struct Authentication: RouterMiddleware {
    typealias Context = BasicRequestContext
    let key: String
    let viewerKey: String?
    let sessions: Sessions

    /// What the viewer key may read: the board, its pictures and its events.
    static let viewerReads: Set<String> = ["/v1/board", "/v1/board.png", "/v1/board.svg", "/v1/events"]

    /// Set on a request made with the viewer key, so what it reads leaves out who sent what (a
    /// client that sets it itself only reads less).
    static let viewerMark = HTTPField.Name("Flapd-Viewer")!

    /// Whether `request` was made with the viewer key.
    static func isViewer(_ request: Request) -> Bool { request.headers[viewerMark] != nil }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let header = request.headers[.authorization] {
            let given = Self.secret(in: header) ?? ""
            if secretsMatch(given, key) { return try await next(request, context) }
            guard let viewerKey, secretsMatch(given, viewerKey) else {
                return Responses.error(.unauthorized, "the API key is wrong", headers: [.wwwAuthenticate: "Bearer"])
            }
            guard [.get, .head].contains(request.method), Self.viewerReads.contains(request.uri.path) else {
                return Responses.error(.forbidden, "the viewer key reads the board (GET /v1/board, /v1/board.png, /v1/board.svg, /v1/events) and nothing else; use the API key")
            }
            var head = request.head
            head.headerFields[Self.viewerMark] = "1"
            return try await next(Request(head: head, body: request.body), context)
        }
        guard let id = Sessions.id(in: request), await sessions.expires(id) != nil else {
            return Responses.error(.unauthorized, "this API needs Authorization: Bearer <key> or a signed-in session (the key file's path is in flapd's log)",
                                   headers: [.wwwAuthenticate: "Bearer"])
        }
        if ![.get, .head, .options].contains(request.method), !Self.sameOrigin(request) {
            return Responses.error(.forbidden, "a request from another site is refused: send it from flapd's own page")
        }
        return try await next(request, context)
    }

    /// The key in `Bearer KEY`, or the password of `Basic base64(user:password)` (dashboards
    /// that can only send Basic put the key there, under any user name).
    static func secret(in header: String) -> String? {
        if header.hasPrefix("Bearer ") { return String(header.dropFirst(7)) }
        guard header.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6))),
              let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":") else { return nil }
        return String(pair[pair.index(after: colon)...])
    }

    /// Whether the request says it comes from this server's own pages.
    static func sameOrigin(_ request: Request) -> Bool {
        if let origin = request.headers[.origin] {
            guard let host = request.head.authority else { return false }
            return origin == "http://\(host)" || origin == "https://\(host)"
        }
        return request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "same-origin"
    }
}
