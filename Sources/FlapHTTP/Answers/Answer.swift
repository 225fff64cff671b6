import HTTPTypes
import Hummingbird

/// What a handler answers: an encodable value, written as JSON in the documented shape
/// (``Responses/json(_:_:headers:)``) with its status, 200 unless said, and any headers.
struct Answer<Value: Encodable & Sendable>: ResponseGenerator {
    var status: HTTPResponse.Status
    var value: Value
    var headers: HTTPFields

    init(status: HTTPResponse.Status = .ok, _ value: Value, headers: HTTPFields = [:]) {
        self.status = status
        self.value = value
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }

    /// The answer as a response, for a handler that answers in more than one way.
    var response: Response { Responses.json(status, value, headers: headers) }
}
