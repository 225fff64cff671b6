import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// JSON answers with the shapes the APIs document.
enum Responses {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as JSON with `status`; a value that cannot be encoded is a 500 that says so,
    /// never an empty object under the status meant for the value.
    static func json(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        let data: Data
        do { data = try encoder.encode(value) } catch {
            let said = ErrorBody(error: "flapd could not write its answer as JSON: \(error)", errors: nil)
            return json(.internalServerError, said)
        }
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `{"error": message}`, plus `errors` (field, problem) when there are several.
    static func error(_ status: HTTPResponse.Status, _ message: String, problems: [FieldProblem]? = nil, headers: HTTPFields = [:]) -> Response {
        json(status, ErrorBody(error: message, errors: problems), headers: headers)
    }

    struct ErrorBody: Encodable {
        var error: String
        var errors: [FieldProblem]?
    }

    struct FieldProblem: Encodable {
        var field: String
        var problem: String
    }

    /// Reads a request body of at most `limit` bytes; nil when the request is larger. A body
    /// still arriving after ``bodyTimeout`` is given up (``BodyTimeout``, answered 408): a client
    /// sending a byte now and then must not hold a connection for hours.
    static func body(of request: Request, limit: Int) async throws -> [UInt8]? {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { return nil }
        do {
            return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
                // Read here, on this thread, as far as it goes without waiting: a small body
                // came with its head and is read at once, with no thread woken for it and none
                // for a timer (each a wake-up of an idle core, a good part of a message's way
                // to the board). Only a body still on its way gets the timer.
                let read = Atomic(false)
                group.addImmediateTask {
                    defer { read.store(true, ordering: .releasing) }
                    return Array(try await request.body.collect(upTo: limit).readableBytesView)
                }
                if !read.load(ordering: .acquiring) {
                    group.addTask {
                        try await Task.sleep(for: bodyTimeout)
                        throw BodyTimeout()
                    }
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        } catch is NIOTooManyBytesError {
            return nil
        }
    }

    /// How long a request body may take to arrive.
    static let bodyTimeout = ConnectionLimits().bodyTimeout

    /// A request body that did not arrive in time.
    struct BodyTimeout: Error, CustomStringConvertible {
        var description: String { "the request body did not arrive within \(bodyTimeout.components.seconds) s" }
    }

    /// What to say of a body over `limit`: its size when the request gave it, and the limit.
    static func tooLarge(_ request: Request, limit: Int = maximumBody) -> String {
        let sent = request.headers[.contentLength].map { "the body is \($0) bytes" } ?? "the body is over the limit"
        let most = limit == maximumBody ? "a message may be at most 64 KiB (\(limit) bytes)" : "this request's body may be at most \(limit) bytes"
        return "\(sent); \(most)"
    }

    /// The largest body either API takes: 64 KiB, as for MQTT payloads.
    static let maximumBody = 64 * 1024
}

/// Compares secrets in time that depends only on their lengths, not on where they differ.
public func secretsMatch(_ given: String, _ expected: String) -> Bool {
    let a = Array(given.utf8), b = Array(expected.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<max(a.count, b.count) {
        difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
    }
    return difference == 0
}

/// A value whose JSON belongs to another module (a sensor's report, a write to a real Vestaboard,
/// a room), encoded as itself: this layer passes it on without knowing its type.
public struct Encoded: Encodable, Sendable {
    let value: any Encodable & Sendable

    /// `value`, to be encoded as itself.
    public init(_ value: any Encodable & Sendable) { self.value = value }

    /// Encodes the value as it encodes itself.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
