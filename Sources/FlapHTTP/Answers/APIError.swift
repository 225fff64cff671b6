import HTTPTypes
import Hummingbird

/// A refusal as flapd's APIs answer it: a status and `{"error": message}`, with `errors` field by
/// field when there are several, and any header it needs (`Retry-After`). Handlers throw it; the
/// route it was thrown from answers it (``AccessRoutes``), so the middleware around the routes
/// sees it as any other answer (its headers, its status in the metrics).
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    var problems: [Responses.FieldProblem]?
    var headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, problems: [Responses.FieldProblem]? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.problems = problems
        self.headers = headers
    }

    /// The answer: the same JSON body `Responses.error` writes.
    var response: Response { Responses.error(status, message, problems: problems, headers: headers) }

    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
