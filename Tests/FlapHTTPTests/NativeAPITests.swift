import FlapMessaging
import Foundation
import HTTPTypes
import TestSupport
import Testing

/// The native API's routes, answered by flapd's own router in this process (`RoutedAPI`), and
/// what needs a running flapd (motion, the served description as a client reads it) through a
/// real HTTP client.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct NativeAPITests {
    @Test func aMessageIsAcceptedCommittedAndReceipted() async throws {
        try await RoutedAPI().run { api in
            let reply = try await api.post("/v1/messages", #"{"id": "m1", "sender": {"id": "kitchen"}, "text": "Dinner at 7"}"#)
            #expect(reply.status == 202)
            #expect(reply.object["id"] as? String == "m1")
            #expect(reply.object["status"] as? String == "accepted")
            let receipt = try await api.get("/v1/receipts/m1")
            #expect(receipt.status == 200)
            #expect(receipt.object["sender"] as? String == "kitchen")
            let again = try await api.post("/v1/messages", #"{"id": "m1", "sender": {"id": "kitchen"}, "text": "Dinner at 7"}"#)
            #expect(again.status == 200 && again.object["duplicate"] as? Bool == true)
            let list = try await api.get("/v1/slots").object["slots"] as? [[String: Any]]
            #expect(list?.first?["sender"] as? String == "kitchen")
            #expect(list?.first?["text"] as? [String] == ["Dinner at 7"])
            #expect(try await api.get("/v1/receipts/nope").status == 404)
            // Recent receipts, newest first.
            #expect(try await api.post("/v1/messages", #"{"id": "m2", "sender": {"id": "hall"}, "text": "Keys"}"#).status == 202)
            let recent = try await api.get("/v1/receipts?limit=5").object["receipts"] as? [[String: Any]] ?? []
            #expect(recent.compactMap { $0["id"] as? String } == ["m2", "m1"])
            #expect(recent.first?["sender"] as? String == "hall")
        }
    }

    @Test func theKeyIsRequiredAndChecked() async throws {
        try await RoutedAPI().run { api in
            let missing = try await api.get("/v1/status", key: nil)
            #expect(missing.status == 401)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            #expect(try await api.get("/v1/board", key: "test-kez").status == 401)
            #expect(try await api.get("/v1/board", key: "test-kez").error == "the API key is wrong")
            // The scheme's name is case-insensitive (RFC 9110).
            for scheme in ["bearer", "BEARER"] {
                #expect(
                    try await api.request(.get, "/v1/board", key: nil, headers: [.authorization: "\(scheme) \(RoutedAPI.key)"]).status == 200,
                    "\(scheme)")
            }
            // Health and metrics need no key.
            #expect(try await api.get("/healthz", key: nil).status == 200)
            #expect(try await api.get("/metrics", key: nil).status == 200)
            // A method a path does not take: 405, with the ones it does.
            let wrongMethod = try await api.request(.patch, "/v1/board")
            #expect(wrongMethod.status == 405 && wrongMethod.headers[.allow] == "GET", "\(wrongMethod.status) \(wrongMethod.headers)")
            #expect(wrongMethod.error.contains("PATCH is not served at /v1/board"))
            #expect(try await api.request(.put, "/v1/receipts/x").headers[.allow] == "GET")
            #expect(try await api.get("/v1/nothing-here").status == 404)
        }
    }

    /// The description as a client fetches it from a running flapd: the file kept in the
    /// repository, byte for byte, with no key; and the key never in flapd's log.
    @Test func theServedDescriptionIsTheRepositorysFile() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let description = try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").get("/v1/openapi.json")
        let file = try Data(contentsOf: PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json"))
        #expect(description.status == 200 && description.body == file)
        #expect(!flapd.process.stderr.contains(flapd.apiKey))
    }

    @Test func badRequestsGetClearAnswers() async throws {
        try await RoutedAPI().run { api in
            let plain = try await api.request(.post, "/v1/messages", headers: [.contentType: "text/plain"])
            #expect(plain.status == 415)
            let big = try await api.post("/v1/messages", #"{"text": ""# + String(repeating: "A", count: 70_000) + #""}"#)
            #expect(big.status == 413)
            let malformed = try await api.post("/v1/messages", "{not json")
            #expect(malformed.status == 400)
            #expect(malformed.error == "the body is not valid JSON")
            let invalid = try await api.post("/v1/messages", #"{"sender": {"id": 3}, "text": "ab~", "align": "up", "unsupported": "refuse"}"#)
            #expect(invalid.status == 400)
            let problems = invalid.object["errors"] as? [[String: String]]
            #expect(problems?.map { $0["field"] ?? "" } == ["sender.id", "align", "text"])
            #expect(problems?.last?["problem"] == "line 1, position 3: unsupported character: ~")
            // Without "unsupported": "refuse", what the board lacks is replaced and named.
            let replaced = try await api.post("/v1/messages", #"{"text": "ab~ 🦄"}"#)
            #expect(
                replaced.status == 202
                    && replaced.object["warnings"] as? [String] == [
                        "line 1, position 3: '~' is not on the board: shown as ' '", "line 1, position 5: '🦄' is not on the board: shown as ' '"
                    ], "\(replaced.object)")
            #expect(try await api.post("/v1/messages", #"{"text": "x", "unsupported": "sometimes"}"#).error.contains("unsupported"))
            // A limit that is not a number is refused, not taken for the default.
            let limit = try await api.get("/v1/receipts?limit=null")
            #expect(limit.status == 400 && limit.error == #"limit: must be a whole number from 1 to 500, not "null""#)
            #expect(try await api.get("/v1/queue?limit=ten").status == 400)
            #expect(try await api.get("/v1/receipts?limit=500").status == 200)
            // Out of the range the description gives: refused, not quietly brought within it.
            for bad in ["0", "501", "-3", "99999999999999999999999"] {
                let reply = try await api.get("/v1/receipts?limit=\(bad)")
                #expect(reply.status == 400 && reply.error.contains("from 1 to 500"), "\(bad): \(reply.status) \(reply.object)")
            }
            // An alignment of the wrong type is named, not replaced by the default.
            let preview = try await api.post("/v1/layout", #"{"text": "HI", "valign": null}"#)
            #expect(preview.status == 400 && preview.error == "valign: null is not top, middle or bottom")
        }
    }

    @Test func aSenderOverItsRateGetsTooManyRequests() async throws {
        try await RoutedAPI(rules: .init(ratePerHour: 2)).run { api in
            for i in 0..<2 {
                #expect(try await api.post("/v1/messages", #"{"id": "r\#(i)", "sender": {"id": "a"}, "text": "x"}"#).status == 202)
            }
            let third = try await api.post("/v1/messages", #"{"id": "r2", "sender": {"id": "a"}, "text": "x"}"#)
            #expect(third.status == 429)
            // One token every 1 800 s; a little may have refilled since the first message.
            let retryAfter = Int(third.headers[.retryAfter] ?? "") ?? 0
            #expect((1790...1800).contains(retryAfter), "Retry-After \(retryAfter)")
            // Duplicates are not counted, other senders are not affected.
            #expect(try await api.post("/v1/messages", #"{"id": "r0", "sender": {"id": "a"}, "text": "x"}"#).status == 200)
            #expect(try await api.post("/v1/messages", #"{"id": "b0", "sender": {"id": "b"}, "text": "x"}"#).status == 202)
            #expect(try await api.get("/v1/receipts/r2").status == 404)
            let metrics = String(decoding: try await api.get("/metrics", key: nil).body, as: UTF8.self)
            #expect(metrics.contains(#"flapd_messages_rejected_total{source="native-api",reason="rate_limited"} 1"#))
            #expect(metrics.contains(#"flapd_messages_accepted_total{source="native-api"} 3"#))
        }
    }

    @Test func theBoardShowsTheMessageWhenTheMotionEnds() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "b1", "text": "{63}"}"#).status == 202)
        let status = try await flapd.api.get("/v1/status").object
        #expect((status["panels"] as? [[String: Any]])?.first?["modules"] as? Int == 132)
        var board: [String: Any] = [:]
        _ = try await eventually(every: .milliseconds(100)) {
            board = (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first ?? [:]
            return board["moving"] as? Bool == false && board["message"] as? String == "b1"
        }
        #expect((board["codes"] as? [[Int]])?[2][10] == 63)
        #expect((board["text"] as? [String])?[2] == "          r           ")
        // Recorded as the panel comes to rest, in a write of its own that a busy machine may
        // still be making when the board already reads as resting.
        #expect(
            try await eventually(every: .milliseconds(50)) {
                try await flapd.api.get("/v1/receipts/b1").object["status"] as? String == "displayed"
            })
    }

    @Test func deletingASlotClearsIt() async throws {
        try await RoutedAPI().run { api in
            _ = try await api.post("/v1/messages", #"{"id": "d1", "sender": {"id": "s"}, "text": "bye"}"#)
            #expect(try await api.request(.delete, "/v1/slots/s").status == 204)
            #expect(try await api.request(.delete, "/v1/slots/s").status == 404)
            let receipt = try await api.get("/v1/receipts/d1").object
            #expect(receipt["status"] as? String == "superseded" || receipt["status"] as? String == "accepted")
        }
    }
}
