import Foundation
import Testing
import TestSupport

/// `POST /v1/layout`: the preview a page shows while someone types.
@Suite(.cleansUp, .timeLimit(.minutes(1))) struct LayoutPreviewTests {
    @Test func textIsLaidOutByFlapdWithWarningsAndErrorsWhereTheyAre() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let ok = try await flapd.api.post("/v1/layout", json: ["text": "{66} hi there", "align": "left", "valign": "top"])
        #expect(ok.status == 200)
        let codes = try #require(ok.object["codes"] as? [[Int]])
        #expect(codes.count == 6 && codes[0].count == 22 && codes[0].prefix(4) == [66, 0, 8, 9])
        #expect((ok.object["text"] as? [String])?.first?.hasPrefix("g HI THERE") == true)
        // How long the flip would take from the blank board: some seconds on a split-flap panel.
        let seconds = ok.object["flipSeconds"] as? Double ?? 0
        #expect(seconds > 0.5 && seconds < 30, "\(ok.object)")

        let substituted = try await flapd.api.post("/v1/layout", json: ["text": "Café"])
        #expect((substituted.object["warnings"] as? [String])?.isEmpty == false, "\(substituted.object)")

        // A character the board lacks is replaced, as in a message, and the warning says where.
        let replaced = try await flapd.api.post("/v1/layout", json: ["text": "ok\nnot ~ ok"])
        #expect(replaced.object["warnings"] as? [String] == ["line 2, position 5: '~' is not on the board: shown as ' '"], "\(replaced.object)")
        let bad = try await flapd.api.post("/v1/layout", json: ["text": "ok\nnot ~ ok", "unsupported": "refuse"])
        let problem = try #require(bad.object["error"] as? [String: Any])
        #expect(problem["line"] as? Int == 2 && problem["position"] as? Int == 5, "\(problem)")
        #expect(try await flapd.api.post("/v1/layout", json: ["text": "x", "align": "sideways"]).status == 400)
        // Nothing was sent.
        #expect((try await flapd.api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true)
    }
}
