import AsyncHTTPClient
import FlapCore
import FlapJSON
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// Finds a Vestaboard on the home network by how it answers, and turns its Local API on. A board
/// answers a request without its key with 401 and the plain text `Invalid API key`, which tells it
/// from any other server; no mDNS service type is known, so it is found by the name boards answer
/// to (`vestaboard.local`) or an address the owner types. Enabling trades the token Vestaboard
/// e-mails the owner for the board's Local API key, once.
public struct VestaboardFinder: Sendable {
    /// The name Vestaboards answer to on the home network.
    public static let usualName = "vestaboard.local"
    /// The Local API's port.
    public static let localAPIPort = 7000
    /// The most of an answer read: the enablement's is a short JSON object.
    static let answerBudget = 4096

    private let http: HTTPClient
    private let timeout: TimeAmount

    /// A finder waiting up to `timeout` for each answer.
    public init(http: HTTPClient = .shared, timeout: Duration = .seconds(5)) {
        self.http = http
        self.timeout = TimeAmount(timeout)
    }

    /// What answered at an address.
    public enum Finding: Sendable, Equatable {
        /// A Vestaboard: 401 `Invalid API key`.
        case vestaboard
        /// Some other HTTP server, with the status it gave.
        case otherServer(status: Int)
        /// Nothing, and why.
        case nothing(String)
    }

    /// An address as the owner types it (`vestaboard.local`, `192.168.1.20`, `host:7000`,
    /// `http://[fd00::2]:7000`) as the Local API's base URL, or why it is not one.
    public static func baseURL(_ typed: String) -> Result<URL, AddressProblem> {
        var text = typed.trimmed
        if text.lowercased().hasPrefix("http://") { text.removeFirst(7) }
        if text.hasSuffix("/") { text.removeLast() }
        guard !text.isEmpty else {
            return .failure(AddressProblem("an empty address: type the board's name or its address, such as vestaboard.local"))
        }
        if let bad = text.firstIndex(where: { !($0.isLetter || $0.isNumber || "-.:[]_".contains($0)) || !$0.isASCII }) {
            let column = text.distance(from: text.startIndex, to: bad) + 1
            return .failure(
                AddressProblem("\"\(typed)\" has \"\(text[bad])\" at column \(column): a board's address is a name or an IP address, and a port"))
        }
        if text.filter({ $0 == ":" }).count > 1, !text.hasPrefix("[") { text = "[\(text)]" }  // a bare IPv6 address
        let hasPort = text.hasPrefix("[") ? text.contains("]:") : text.contains(":")
        guard let url = URL(string: "http://" + text + (hasPort ? "" : ":\(localAPIPort)")), let host = url.host, !host.isEmpty, url.port != nil
        else {
            return .failure(AddressProblem("\"\(typed)\" is not a host name or an address with a port"))
        }
        return .success(url)
    }

    /// Why a typed address is not one.
    public struct AddressProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, with the column.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// What answers at `base` to a request for the board's message without a key.
    public func ask(_ base: URL) async -> Finding {
        var request = HTTPClientRequest(url: base.absoluteString + "/local-api/message")
        request.headers.add(name: "X-Vestaboard-Local-Api-Key", value: "flapd-finding-the-board")
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.answerBudget)
            let text = String(buffer: body)
            if response.status.code == 401, text.contains("Invalid API key") { return .vestaboard }
            return .otherServer(status: Int(response.status.code))
        } catch {
            return .nothing("\(base.host ?? "it") did not answer on port \(base.port ?? Self.localAPIPort): \(Self.described(error))")
        }
    }

    /// Turns the board's Local API on with the enablement token; its Local API key.
    public func enable(_ base: URL, token: String) async throws(VestaboardError) -> String {
        var request = HTTPClientRequest(url: base.absoluteString + "/local-api/enablement")
        request.method = .POST
        request.headers.add(name: "X-Vestaboard-Local-Api-Enablement-Token", value: token)
        let status: Int
        let bytes: [UInt8]
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = Int(response.status.code)
            bytes = Array(buffer: try await response.body.collect(upTo: Self.answerBudget))
        } catch {
            throw .transient("cannot reach the board at \(base.absoluteString): \(Self.described(error))")
        }
        guard status == 200 || status == 201 else {
            throw .refused(status: status, message: status == 401 || status == 403 ? "the board refused the enablement token" : "")
        }
        guard let key = (try? JSONValue(parsing: bytes))?["apiKey"]?.string, !key.isEmpty, key.count <= 512 else {
            throw .transient("the board's answer to the enablement had no apiKey")
        }
        return key
    }

    private static func described(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("deadlineExceeded") || text.contains("Timeout") { return "no answer in time" }
        if text.contains("dnsFailed") || text.contains("NXDOMAIN") || text.contains("resolve") { return "the name is not known on this network" }
        return text
    }
}
