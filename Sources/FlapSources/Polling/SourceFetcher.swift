import AsyncHTTPClient
import FlapStorage
import FoundationEssentials
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// One look at a source: a conditional GET (If-None-Match, If-Modified-Since) or a file read.
struct SourceFetcher: Sendable {
    enum Answer: Sendable, Equatable {
        case changed(body: [UInt8], etag: String?, lastModified: String?)
        case unchanged
    }

    struct Failure: Error, Sendable {
        var problem: SourceProblem
        /// A server's Retry-After (429, 503), in seconds.
        var retryAfter: Int?
    }

    /// The largest answer read: a calendar of many years, not a video.
    static let largestBody = 4 << 20

    let http: HTTPClient

    func fetch(_ definition: SourceSettings, previous: SourceRecord) async throws(Failure) -> Answer {
        switch definition.url.flatMap(SourceLocation.init) {
        case .file(let path)?:
            let data: Data
            do {
                guard let read = try SmallFile.read(path, largest: Self.largestBody) else {
                    throw SmallFile.Failure.unreadable(path: path, errno: ENOENT)
                }
                data = read
            } catch SmallFile.Failure.tooLarge {
                throw Failure(problem: SourceProblem("\(path) is larger than 4 MB"))
            } catch {
                throw Failure(problem: SourceProblem("cannot read \(path)"))
            }
            return data == previous.body ? .unchanged : .changed(body: Array(data), etag: nil, lastModified: nil)
        case .http(let url)?:
            return try await get(url, definition: definition, previous: previous)
        case nil:
            throw Failure(problem: SourceProblem("it has no URL to fetch"))
        }
    }

    private func get(_ url: String, definition: SourceSettings, previous: SourceRecord) async throws(Failure) -> Answer {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "flapd (VestaWidget)")
        request.headers.add(name: "Accept-Encoding", value: "identity")
        for (name, value) in definition.headers.sorted(by: { $0.key < $1.key }) { request.headers.replaceOrAdd(name: name, value: value) }
        for (name, path) in definition.headerFiles.sorted(by: { $0.key < $1.key }) {
            guard let data = try? SmallFile.read(path, largest: SmallFile.largestKeyFile) else {
                throw Failure(
                    problem: SourceProblem(
                        "cannot read the file with its \(name) header (\(path)), a line of at most \(SmallFile.largestKeyFile) bytes"))
            }
            let value = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            request.headers.replaceOrAdd(name: name, value: value.trimmingSpaces)
        }
        if previous.body != nil {
            if let etag = previous.etag { request.headers.add(name: "If-None-Match", value: etag) }
            if let lastModified = previous.lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: TimeAmount(definition.timeout))
        } catch {
            throw Failure(problem: SourceProblem(Self.describe(error, timeout: definition.timeout)))
        }
        let status = Int(response.status.code)
        if status == 304 { return .unchanged }
        // flapd asks for no compression; a server that compresses anyway (a gzip bomb is a few KB
        // that unpack to gigabytes) is not unpacked.
        if let encoding = response.headers.first(name: "Content-Encoding"), encoding.lowercased() != "identity", (200..<300).contains(status) {
            throw Failure(
                problem: SourceProblem(
                    "the server sent it compressed (Content-Encoding: \(encoding)) although flapd asked for it as it is; it is not unpacked"))
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: Self.largestBody)
        } catch let error as NIOTooManyBytesError {
            _ = error
            throw Failure(problem: SourceProblem("the answer is larger than 4 MB"))
        } catch {
            throw Failure(problem: SourceProblem(Self.describe(error, timeout: definition.timeout)))
        }
        guard (200..<300).contains(status) else {
            let retryAfter = response.headers.first(name: "Retry-After").flatMap { Int($0.trimmingSpaces) }
            let reason = response.status.reasonPhrase
            throw Failure(
                problem: SourceProblem("the server answered \(status) \(reason)"), retryAfter: (status == 429 || status == 503) ? retryAfter : nil)
        }
        return .changed(
            body: Array(buffer: body), etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
    }

    static func describe(_ error: any Error, timeout: Duration) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout: return "no answer within \(timeout.components.seconds) s"
            case .connectTimeout: return "could not connect within \(timeout.components.seconds) s"
            case .remoteConnectionClosed: return "the server closed the connection before answering"
            default: break
            }
        }
        let text = "\(error)"
        if text.contains("connectionRefused") || text.contains("Connection refused") { return "the connection was refused" }
        if text.contains("NXDOMAIN") || text.contains("resolve") || text.contains("lookup") { return "the server's name could not be found" }
        if text.contains("certificate") || text.contains("handshake") { return "its certificate is not trusted (\(text))" }
        return text
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
