import AsyncHTTPClient
import FoundationEssentials
import NIOCore
import NIOHTTP1

/// One HTTP request and its whole answer, through AsyncHTTPClient. (URLSession would load
/// FoundationNetworking, and with it libcurl and some thirty libraries whose set-up was a third of
/// every flapctl start, `--jsonl` included.)
package enum HTTPExchange {
    package struct Answer {
        package var status: Int
        /// Header names lowercased.
        package var headers: [String: String]
        package var body: Data
    }

    /// One client for the process, as `HTTPClient.shared` is, but one that fails at once when
    /// nothing listens: the shared one retries connecting until the request's deadline, so a
    /// stopped flapd took 10 s to be reported (and an assistant's every tool call with it).
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(5)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    package static func send(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: Data? = nil,
        timeout: Duration = .seconds(10)
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: TimeAmount(timeout))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        return Answer(status: Int(response.status.code), headers: fields, body: Data(bytes.readableBytesView))
    }
}
