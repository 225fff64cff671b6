import FlapCore
import FlapJSON
import FlapMessaging
import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging

/// The Vestaboard Local API (docs/local-api.md), so Vestaboard clients such as Python `vesta`'s
/// `LocalClient` work unchanged: enable with the enablement token to get the key, then read and
/// write the board's rows with `X-Vestaboard-Local-Api-Key`.
public struct LocalAPI: Sendable {
    /// Where its messages go.
    public let intake: MessageIntake
    /// The panels it reads the board from.
    public let panels: any PanelsQuery
    /// The token that `POST /local-api/enablement` must present.
    public let enablementToken: String
    /// The key it hands out, and every other request must present.
    public let apiKey: String

    /// The Local API over `intake` and `panels`, enabled by `enablementToken`, handing out `apiKey`.
    public init(intake: MessageIntake, panels: any PanelsQuery, enablementToken: String, apiKey: String) {
        self.intake = intake
        self.panels = panels
        self.enablementToken = enablementToken
        self.apiKey = apiKey
    }

    static let enablementHeader = HTTPField.Name.vestaboardEnablementToken
    static let keyHeader = HTTPField.Name.vestaboardLocalKey

    /// Its routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: FailureAnswers(answer: { Self.message($0, $1) }, logger: Logger(label: "flapd.http")))
        router.post("local-api/enablement") { request, _ in
            guard let token = request.headers[Self.enablementHeader], secretsMatch(token, enablementToken) else {
                return Self.message(.unauthorized, "Invalid enablement token")
            }
            struct Enabled: Encodable { var message: String; var apiKey: String }
            return Responses.json(.ok, Enabled(message: "Local API enabled", apiKey: apiKey))
        }
        router.get("local-api/message") { request, _ in
            guard authorized(request) else { return Self.invalidKey }
            let board = await panels.panels().first?.board ?? Board(size: intake.boardSize)
            return Responses.json(.ok, ["message": board.codeRows])
        }
        router.post("local-api/message") { request, _ in
            guard authorized(request) else { return Self.invalidKey }
            guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else {
                intake.refuse(.tooLarge, source: .localAPI)
                return Self.message(.contentTooLarge, Responses.tooLarge(request))
            }
            return try await write(body)
        }
        return router
    }

    private func authorized(_ request: Request) -> Bool {
        guard let key = request.headers[Self.keyHeader] else { return false }
        return secretsMatch(key, apiKey)
    }

    /// A bare array of rows, or `{"characters": rows, "strategy", "step_size", "step_interval_ms"}`.
    private func write(_ body: [UInt8]) async throws -> Response {
        guard let json = try? JSONValue(parsing: body) else {
            intake.refuse(.invalid, source: .localAPI)
            return Self.message(.badRequest, "the body is not valid JSON")
        }
        guard let fields = LocalAPIBody.fields(json) else {
            intake.refuse(.invalid, source: .localAPI)
            return Self.message(.badRequest, "send the rows of character codes, or {\"characters\": rows}")
        }
        // A Vestaboard shows every write: none is taken as a copy of an earlier one.
        let outcome = try await intake.submit(fields: fields, source: .localAPI, repetition: .alwaysNew)
        switch outcome {
        case .accepted(let receipt, _):
            return Responses.json(.created, ["message": "Message sent", "id": receipt.id])
        case .duplicate(let receipt):
            return Responses.json(.created, ["message": "Message sent", "id": receipt.id])
        case .replayed(let first):
            return Responses.json(.created, ["message": "Message sent", "id": first.id])
        case .keyReused:
            // The Local API sends no idempotency keys, so this cannot happen; answered, not trapped.
            return Self.message(.conflict, "this idempotency key was used for another message")
        case .invalid(let errors):
            return Self.message(.badRequest, errors.description.replacing("codes", with: "characters"))
        case .refused(let reason):
            return Self.message(.forbidden, reason)
        case .rateLimited(let wait):
            let seconds = Int(wait.rounded(.up))
            return Responses.json(
                .tooManyRequests, ["message": "Too many messages; try again in \(seconds) s"],
                headers: [.retryAfter: String(seconds)])
        }
    }

    static func message(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Responses.json(status, ["message": text])
    }

    /// A wrong key, answered as a Vestaboard answers it: the plain text `Invalid API key`, by
    /// which Home Assistant's Vestaboard integration tells a wrong key from something that is
    /// not a Vestaboard at all.
    static let invalidKey = Response(
        status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "Invalid API key")))
}
