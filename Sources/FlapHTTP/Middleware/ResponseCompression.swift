import CompressNIO
import HTTPTypes
import Hummingbird
import NIOCore

/// Sends the page, its scripts and styles, pictures in SVG and JSON answers over 1 KiB
/// gzip-compressed to a client that accepts it (`Accept-Encoding: gzip`): a phone on a weak
/// Wi-Fi loads the page in a third of the bytes. Streams (event streams) and small answers go as
/// they are. A compressed answer's ETag gets `-gzip` inside its quotes, so a cache never takes one
/// representation for the other, and such a tag asked again is matched against the plain one.
struct ResponseCompression<Context: RequestContext>: RouterMiddleware {
    static var smallest: Int { 1024 }
    static var compressible: [String] { ["text/", "application/json", "application/javascript", "application/manifest+json", "image/svg+xml"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.acceptsGzip(request.headers[.acceptEncoding]) else { return try await next(request, context) }
        var request = request
        let askedCompressed = request.headers[.ifNoneMatch]?.hasSuffix("-gzip\"") == true
        if askedCompressed, let tag = request.headers[.ifNoneMatch] {
            var head = request.head
            head.headerFields[.ifNoneMatch] = String(tag.dropLast(6)) + "\""
            request = Request(head: head, body: request.body)
        }
        var response = try await next(request, context)
        response.headers[.vary] = "Accept-Encoding"
        if response.status == .notModified {
            // Unchanged: the tag answered is the one asked about.
            if askedCompressed, let tag = response.headers[.eTag] { response.headers[.eTag] = Self.gzipTag(tag) }
            return response
        }
        guard response.headers[.contentEncoding] == nil,
            let type = response.headers[.contentType], !type.hasPrefix("text/event-stream"),
            Self.compressible.contains(where: type.hasPrefix),
            let length = response.body.contentLength, length > Self.smallest
        else { return response }
        var plain = try await response.body.collected()
        let compressed = try plain.compress(with: .gzip())
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        if let tag = response.headers[.eTag] { response.headers[.eTag] = Self.gzipTag(tag) }
        response.body = ResponseBody(byteBuffer: compressed)
        return response
    }

    /// Whether `Accept-Encoding` takes gzip (not refused with `q=0`).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.lowercased().split(separator: ",").contains { part in
            let fields = part.split(separator: ";").map { $0.filter { $0 != " " } }
            guard fields.first == "gzip" || fields.first == "*" else { return false }
            return !fields.dropFirst().contains { $0 == "q=0" || $0 == "q=0.0" || $0 == "q=0.00" || $0 == "q=0.000" }
        }
    }

    static func gzipTag(_ tag: String) -> String {
        tag.hasSuffix("\"") && !tag.hasSuffix("-gzip\"") ? String(tag.dropLast()) + "-gzip\"" : tag
    }
}
