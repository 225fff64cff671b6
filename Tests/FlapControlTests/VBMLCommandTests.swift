import Foundation
import TestSupport
import Testing

/// `flapctl vbml`: one document in, its rows or its error out; `--jsonl` answers each line in order.
@Suite struct VBMLCommandTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aDocumentIsDrawnAndARefusedOneSaysWhereWithStatus2() async throws {
        let drawn = try await ProcessRunner.run(
            flapctl, ["vbml"], input: Data(#"{"components": [{"template": "HI {{who}}"}], "props": {"who": "SAM"}}"#.utf8))
        #expect(drawn.status == 0)
        let rows = try #require(try object(drawn.stdoutText)["rows"] as? [[Int]])
        #expect(rows.count == 6 && rows[0].count == 22 && rows[0].prefix(6) == [8, 9, 0, 19, 1, 13])
        let refused = try await ProcessRunner.run(
            flapctl, ["vbml"], input: Data(#"{"components": [{"template": "X", "style": {"width": 30}}]}"#.utf8))
        #expect(refused.status == 2)
        #expect(try object(refused.stdoutText)["error"] as? String == "components[0].style.width: 30 is wider than the board (22)")
        let note = try await ProcessRunner.run(flapctl, ["vbml", "--size", "note"], input: Data(#"{"components": [{"template": "❤️"}]}"#.utf8))
        #expect((try object(note.stdoutText)["rows"] as? [[Int]])?.map(\.count) == [15, 15, 15])
    }

    @Test func jsonLinesAreAnsweredInOrderWithoutStoppingAtABadOne() async throws {
        let lines = [
            #"{"components": [{"template": "A"}]}"#, "not json", #"{"components": [{"template": "{99}"}]}"#, #"{"components": [{"template": "B"}]}"#
        ]
        let result = try await ProcessRunner.run(flapctl, ["vbml", "--jsonl"], input: Data((lines.joined(separator: "\n") + "\n").utf8))
        #expect(result.status == 0)
        let answers = try result.stdoutText.split(separator: "\n").map { try object(String($0)) }
        #expect(answers.count == 4)
        #expect((answers[0]["rows"] as? [[Int]])?[0][0] == 1 && (answers[3]["rows"] as? [[Int]])?[0][0] == 2)
        #expect(answers[1]["error"] as? String == "not a JSON document")
        #expect((answers[2]["error"] as? String)?.hasPrefix("components[0].template: {99") == true)
    }
}
