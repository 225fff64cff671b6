import AsyncHTTPClient
import FlapCore
import FlapJSON
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// Reads and writes a board through one of its APIs. Timeouts as others use them: 3 s to
/// connect and 10 s to answer on the home network, 5 s to connect to the cloud.
public struct VestaboardClient: Sendable {
    /// The API it speaks to.
    public let api: VestaboardAPI
    private let http: HTTPClient
    private let timeout: TimeAmount

    /// A client of `api`, waiting up to `timeout` for an answer.
    public init(api: VestaboardAPI, http: HTTPClient = .shared, timeout: Duration = .seconds(10)) {
        self.api = api
        self.http = http
        self.timeout = TimeAmount(timeout)
    }

    /// What a write did.
    public enum Written: Sendable, Equatable {
        case shown
        /// The board already showed it (the Read/Write API says so with 405).
        case alreadyShown
    }

    /// The board's rows now (nil when the board has no message to tell).
    public func read() async throws(VestaboardError) -> [[Int]]? {
        let (status, body, headers) = try await send("GET", body: nil)
        guard status == 200 else { throw Self.error(status, body, headers) }
        guard let object = (try? JSONValue(parsing: body))?.object else {
            throw .transient("the board answered something that is not JSON")
        }
        switch api {
        case .local:
            return object["message"].flatMap(Self.rows)
        case .cloud, .readWrite:
            // The cloud gives the rows as JSON inside a string.
            guard let layout = object["currentMessage"]?["layout"]?.string else { return nil }
            return (try? JSONValue(parsing: Array(layout.utf8))).flatMap(Self.rows)
        }
    }

    /// Writes `rows`; the Local API takes the `transition`, the cloud can be `forced` past its
    /// 15 s limit.
    public func write(_ rows: [[Int]], transition: BoardTransition? = nil, forced: Bool = false) async throws(VestaboardError) -> Written {
        let object: JSONValue
        switch api {
        case .local:
            if let transition {
                var fields: [String: JSONValue] = ["characters": JSONValue(rows: rows), "strategy": .string(transition.strategy)]
                if let stepSize = transition.stepSize { fields["step_size"] = JSONValue(stepSize) }
                if let interval = transition.stepIntervalMs { fields["step_interval_ms"] = JSONValue(interval) }
                object = .object(fields)
            } else {
                object = JSONValue(rows: rows)
            }
        case .cloud, .readWrite:
            var fields: [String: JSONValue] = ["characters": JSONValue(rows: rows)]
            if forced { fields["forced"] = true }
            object = .object(fields)
        }
        let data = Data(object.text.utf8)
        let (status, body, headers) = try await send("POST", body: data)
        if case .readWrite = api, status == 405, String(decoding: body, as: UTF8.self).contains("fingerprint") { return .alreadyShown }
        guard (200..<300).contains(status) else { throw Self.error(status, body, headers) }
        return .shown
    }

    private func send(_ method: String, body: Data?) async throws(VestaboardError) -> (Int, [UInt8], [(String, String)]) {
        var request = HTTPClientRequest(url: api.messageURL.absoluteString)
        request.method = .init(rawValue: method)
        request.headers.add(name: api.credential.name, value: api.credential.value)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await http.execute(request, timeout: timeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            return (Int(response.status.code), Array(buffer: bytes), response.headers.map { ($0.name, $0.value) })
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .transient("the board did not answer in time (\(api.address))")
        } catch {
            throw .transient("cannot reach the board at \(api.address): \(Self.describe(error))")
        }
    }

    /// Rows of whole numbers, or nil when `value` is anything else.
    static func rows(_ value: JSONValue) -> [[Int]]? {
        guard let rows = value.array else { return nil }
        var result: [[Int]] = []
        for row in rows {
            guard let cells = row.array else { return nil }
            var codes: [Int] = []
            for cell in cells {
                guard let code = cell.int else { return nil }
                codes.append(code)
            }
            result.append(codes)
        }
        return result
    }

    static func error(_ status: Int, _ body: [UInt8], _ headers: [(String, String)]) -> VestaboardError {
        let message = (try? JSONValue(parsing: body))?["message"]?.string ?? ""
        switch status {
        case 400, 401, 403, 404, 405: return .refused(status: status, message: message)
        case 429:
            let seconds = headers.first { $0.0.lowercased() == "retry-after" }.flatMap { Int($0.1.trimmed) } ?? 15
            return .rateLimited(retryAfter: .seconds(max(1, seconds)))
        default: return .transient("the board answered \(status)\(message.isEmpty ? "" : ": \(message)")")
        }
    }

    private static func describe(_ error: any Error) -> String {
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "connection refused" }
        if text.contains("remoteConnectionClosed") { return "the connection was closed before an answer" }
        return text
    }
}
