import FlapMessaging
import FlapMetrics
import Hummingbird

/// `/v1/messages`: a message posted (checked, stored, answered with its receipt), and a message
/// sent for later cancelled before its time; `/v1/scheduled` lists those still waiting.
struct MessagesAPI {
    let intake: MessageIntake
    let metrics: FlapMetrics
    let answers: IntakeAnswers

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.post("messages") { request, _ in try await post(request) }
        v1.delete("messages/:id") { _, context in
            let id = context.parameter("id")
            switch try await intake.inbox.cancel(id, now: intake.now()) {
            case nil:
                return Responses.error(.notFound, "no message with id \(id)")
            case .cancelled:
                return Responses.json(.ok, ["id": id, "status": ReceiptStatus.cancelled.rawValue])
            case let status?:
                return Responses.error(.conflict, "only a message still waiting for its time can be cancelled; \(id) is \(status.rawValue)")
            }
        }
        v1.get("scheduled") { _, _ in
            Responses.json(.ok, ScheduledList(scheduled: try await intake.inbox.scheduled().map(ScheduledMessage.init)))
        }
    }

    private func post(_ request: Request) async throws -> Response {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            metrics.rejected(source: "native-api", reason: "unsupported_type")
            return Responses.error(.unsupportedMediaType, "send the message as JSON, with Content-Type: application/json")
        }
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
            metrics.rejected(source: "native-api", reason: "too_large")
            return Responses.error(.contentTooLarge, Responses.tooLarge(request))
        }
        return try await answers.answer(intake.submit(json: body, source: "native-api"), source: "native-api")
    }
}
