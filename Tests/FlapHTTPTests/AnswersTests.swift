import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import FlapHTTP

/// How answers are written: a refusal thrown is the same JSON as one returned, and a value that
/// cannot be written as JSON is a 500 that says so, never `{}` under the status meant for it.
@Suite struct AnswersTests {
    func body(_ response: Response) async throws -> [String: Any] {
        let writer = Collected()
        try await response.body.write(writer)
        return try #require(try JSONSerialization.jsonObject(with: Data(writer.buffer.readableBytesView)) as? [String: Any])
    }

    @Test func aRefusalCarriesItsStatusProblemsAndHeaders() async throws {
        let refusal = APIError(.tooManyRequests, "too many", problems: [.init(field: "sender", problem: "slow down")], headers: [.retryAfter: "3"])
        #expect(refusal.response.status == .tooManyRequests && refusal.response.headers[.retryAfter] == "3")
        let said = try await body(refusal.response)
        #expect(said["error"] as? String == "too many")
        #expect((said["errors"] as? [[String: String]]) == [["field": "sender", "problem": "slow down"]])
    }

    @Test func aValueThatCannotBeWrittenIsA500ThatSaysSo() async throws {
        let answer = Responses.json(.ok, ["temperature": Double.nan])
        #expect(answer.status == .internalServerError)
        let said = try await body(answer)
        #expect((said["error"] as? String)?.hasPrefix("flapd could not write its answer as JSON") == true, "\(said)")
    }
}

/// Collects a response body's bytes.
private final class Collected: ResponseBodyWriter {
    var buffer = ByteBuffer()
    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        self.buffer.writeBuffer(&buffer)
    }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
