import HTTPTypes
import Testing

/// `Idempotency-Key` on `POST /v1/messages`: a client that lost an answer asks again and gets
/// the first answer, whatever came in between (answered by the router in this process).
@Suite struct IdempotencyKeyTests {
    static let key = HTTPField.Name("Idempotency-Key")!

    @Test func anIdempotencyKeyAnswersTheFirstAnswerAgain() async throws {
        try await RoutedAPI().run { api in
            let body = #"{"text": "KEYS ON HOOK", "sender": {"id": "dad"}}"#
            let first = try await api.request(.post, "/v1/messages", json: body, headers: [Self.key: "retry-1"])
            #expect(first.status == 202)
            // Something newer in between: without the key the same text would be a new message.
            #expect(try await api.post("/v1/messages", #"{"text": "OTHER", "sender": {"id": "dad"}}"#).status == 202)
            let again = try await api.request(.post, "/v1/messages", json: body, headers: [Self.key: "retry-1"])
            #expect(again.status == 202 && again.body == first.body, "\(again.object) vs \(first.object)")
            let receipts = try await api.get("/v1/receipts?limit=10").object["receipts"] as? [[String: Any]] ?? []
            #expect(receipts.count == 2, "\(receipts)")
            let other = try await api.request(.post, "/v1/messages", json: #"{"text": "SOMETHING ELSE"}"#, headers: [Self.key: "retry-1"])
            #expect(other.status == 422 && other.error.contains("Idempotency-Key"), "\(other.status) \(other.object)")
            let bad = try await api.request(.post, "/v1/messages", json: body, headers: [Self.key: "has space"])
            #expect(bad.status == 400 && bad.error.contains("Idempotency-Key"))
        }
    }
}
