import FlapMessaging
import Hummingbird

/// The intake's verdict on a message as an HTTP answer (202, 200 for a duplicate, 400, 403,
/// 429): the same for every route that submits messages. The intake counts it.
enum IntakeAnswers {
    static func answer(_ outcome: IntakeOutcome) throws(APIError) -> Answer<IntakeAnswers.Accepted> {
        switch outcome {
        case .accepted(let receipt, let warnings):
            return Answer(status: .accepted, Accepted(id: receipt.id, status: receipt.status, warnings: warnings))
        case .duplicate(let receipt):
            return Answer(Accepted(id: receipt.id, status: receipt.status, warnings: [], duplicate: true))
        case .invalid(let errors):
            throw APIError(
                .badRequest, errors.description,
                problems: errors.problems.map { .init(field: $0.field, problem: $0.problem) })
        case .refused(let reason):
            throw APIError(.forbidden, reason)
        case .rateLimited(let wait):
            let seconds = Int(wait.rounded(.up))
            throw APIError(
                .tooManyRequests, "too many messages from this sender; try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        case .replayed(let first):
            return Answer(
                status: first.duplicate ? .ok : .accepted,
                Accepted(id: first.id, status: first.status, warnings: first.warnings, duplicate: first.duplicate ? true : nil))
        case .keyReused:
            throw APIError(
                .unprocessableContent,
                "Idempotency-Key: this key was used for a different request in the last 24 hours; use a new key for a new message",
                problems: [.init(field: "Idempotency-Key", problem: "used for a different request")])
        }
    }

    struct Accepted: Encodable {
        var id: String
        var status: ReceiptStatus
        var warnings: [String]
        var duplicate: Bool?
    }
}
