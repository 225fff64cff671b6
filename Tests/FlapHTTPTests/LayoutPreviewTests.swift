import Testing

/// `POST /v1/layout`: the preview a page shows while someone types (answered by the router in
/// this process: nothing of it needs a running flapd).
@Suite(.timeLimit(.minutes(3))) struct LayoutPreviewTests {
    @Test func textIsLaidOutByFlapdWithWarningsAndErrorsWhereTheyAre() async throws {
        try await RoutedAPI().run { api in
            let ok = try await api.post("/v1/layout", #"{"text": "{66} hi there", "align": "left", "valign": "top"}"#)
            #expect(ok.status == 200)
            let codes = try #require(ok.object["codes"] as? [[Int]])
            #expect(codes.count == 6 && codes[0].count == 22 && codes[0].prefix(4) == [66, 0, 8, 9])
            #expect((ok.object["text"] as? [String])?.first?.hasPrefix("g HI THERE") == true)
            // How long the flip would take from the blank board: some seconds on a split-flap panel.
            let seconds = ok.object["flipSeconds"] as? Double ?? 0
            #expect(seconds > 0.5 && seconds < 30, "\(ok.object)")

            let substituted = try await api.post("/v1/layout", #"{"text": "Café"}"#)
            #expect((substituted.object["warnings"] as? [String])?.isEmpty == false, "\(substituted.object)")

            // A character the board lacks is replaced, as in a message, and the warning says where.
            let replaced = try await api.post("/v1/layout", #"{"text": "ok\nnot ~ ok"}"#)
            #expect(replaced.object["warnings"] as? [String] == ["line 2, position 5: '~' is not on the board: shown as ' '"], "\(replaced.object)")
            let bad = try await api.post("/v1/layout", #"{"text": "ok\nnot ~ ok", "unsupported": "refuse"}"#)
            let problem = try #require(bad.object["error"] as? [String: Any])
            #expect(problem["line"] as? Int == 2 && problem["position"] as? Int == 5, "\(problem)")
            #expect(try await api.post("/v1/layout", #"{"text": "x", "align": "sideways"}"#).status == 400)
            // Nothing was sent.
            #expect((try await api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true)
        }
    }
}
