import FlapStorage
import HTTPTypes
import Hummingbird
import Logging

/// A handler that fails still answers in words: a full disk is 507 Insufficient Storage, a
/// read-only, damaged or failing one 503, anything else unforeseen 500, each with a body that
/// says what happened (an empty 500 tells nobody anything). Added first, so it wraps every route.
struct FailureAnswers<Context: RequestContext>: RouterMiddleware {
    /// Builds the body in the API's own shape: `{"error": …}` natively, `{"message": …}` for the Local API.
    let answer: @Sendable (HTTPResponse.Status, String) -> Response
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPResponseError {
            throw error
        } catch let timeout as Responses.BodyTimeout {
            var response = answer(.requestTimeout, "\(timeout)")
            response.headers[.connection] = "close"
            return response
        } catch let fault as StorageFault {
            // Logged once by the storage's health, not once a request.
            return answer(fault.answerStatus, "not saved: \(fault.description)")
        } catch {
            logger.error("a request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            return answer(.internalServerError, "flapd could not do that: \(error)")
        }
    }
}

extension StorageFault {
    /// 507 Insufficient Storage for a full disk, 503 for one that is read-only, damaged or failing.
    var answerStatus: HTTPResponse.Status {
        kind == .full ? HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage") : .serviceUnavailable
    }
}
