import FlapCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Hummingbird
import Logging

/// Signed-in browsers: after `POST /v1/session` with the API key, a random session id in an
/// HttpOnly, SameSite=Strict cookie stands for the key for a week (or until sign-out). Kept in a
/// file beside the key (`sessions.json`, mode 0600) when flapd gives one, so a restart or a power
/// cut does not sign out the phones the app is installed on; otherwise in memory only.
public actor Sessions {
    public static let cookieName = "flapd_session"
    public static let lifetime: TimeInterval = 7 * 86400
    /// At most this many at once; signing in beyond it ends the oldest.
    static let most = 256

    /// By session id (a dictionary: looked up by its hash, never compared with every session).
    private var expiry: [String: Date] = [:]
    private let now: @Sendable () -> Date
    private let file: String?

    /// The largest sessions file read: 256 sessions take about 17 KB.
    static let largestFile = 64 * 1024

    public init(file: String? = nil, now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "flapd.sessions")) {
        self.now = now
        self.file = file
        guard let file, FileManager.default.fileExists(atPath: file) else { return }
        // A damaged file signs everyone out, nothing worse; said once, so it can be looked into.
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size <= Self.largestFile, let data = FileManager.default.contents(atPath: file),
              let stored = try? JSONDecoder().decode([String: Double].self, from: data) else {
            logger.warning("the sessions file is damaged or too large: browsers must sign in again", metadata: ["file": "\(file)", "bytes": "\(size)"])
            return
        }
        let current = now().timeIntervalSince1970
        let sessions = stored.filter { Self.wellFormed($0.key) }
        if sessions.count < stored.count {
            logger.warning("the sessions file held entries that are not sessions; they are ignored", metadata: ["file": "\(file)", "ignored": "\(stored.count - sessions.count)"])
        }
        let usable = sessions.filter { $0.value > current }
        // At most the newest `most`, as signing in keeps.
        expiry = Dictionary(uniqueKeysWithValues: usable.sorted { $0.value > $1.value }.prefix(Self.most)
            .map { ($0.key, Date(timeIntervalSince1970: $0.value)) })
    }

    /// Whether `id` has the form of the ids ``open()`` makes (43 characters of base64url), so
    /// anything else is refused before it is looked up or compared.
    public static func wellFormed(_ id: String) -> Bool {
        id.utf8.count == 43 && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
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
        // A cookie of another form costs nothing more; a well-formed one is found by its hash and
        // then compared in constant time (a session id is as good as the key).
        guard Self.wellFormed(id), let (key, ends) = expiry.first(matching: id), secretsMatch(id, key) else { return nil }
        guard ends > now() else {
            expiry[key] = nil
            return nil
        }
        return ends
    }

    public func close(_ id: String) {
        guard Self.wellFormed(id), expiry.removeValue(forKey: id) != nil else { return }
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
    /// Asked for over HTTPS, it is `Secure`: the browser never sends it over plain HTTP.
    nonisolated static func cookie(_ id: String?, expires: Date?, for request: Request) -> String {
        let secure = request.headers[TransportMark.name] == "tls" ? "; Secure" : ""
        guard let id, let expires else { return "\(cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0\(secure)" }
        return "\(cookieName)=\(id); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(expires.timeIntervalSinceNow.rounded()))\(secure)"
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
    /// that can only send Basic put the key there, under any user name). The scheme's name is
    /// case-insensitive (RFC 9110: `bearer` is `Bearer`).
    static func secret(in header: String) -> String? {
        if let token = bearer(in: header) { return token }
        guard let credentials = credentials(in: header, scheme: "basic"), let decoded = Data(base64Encoded: credentials),
              let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":") else { return nil }
        return String(pair[pair.index(after: colon)...])
    }

    /// The token of an `Authorization: Bearer TOKEN` header, whatever the scheme's case.
    static func bearer(in header: String) -> String? { credentials(in: header, scheme: "bearer") }

    private static func credentials(in header: String, scheme: String) -> String? {
        guard let space = header.firstIndex(of: " "), header[..<space].lowercased() == scheme else { return nil }
        return String(header[header.index(after: space)...]).trimmed
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

extension Dictionary where Key == String {
    /// The entry whose key equals `key`, found through the dictionary's hash.
    func first(matching key: String) -> (String, Value)? {
        guard let index = index(forKey: key) else { return nil }
        return (self[index].key, self[index].value)
    }
}
