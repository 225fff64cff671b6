import Foundation
import Testing

@testable import FlapVestaboard

/// The outbox's rows, written and read without `Codable`, are what JSON says they are.
@Suite struct BoardRowsTextTests {
    @Test func rowsAreWrittenAsTheEncoderWroteThemAndReadBack() throws {
        let boards: [[[Int]]] = [[], [[]], [[0]], [[1, 2, 3], [], [70, 71]], (0..<6).map { row in (0..<22).map { (row * 22 + $0) % 72 } }]
        for rows in boards {
            let text = BoardRowsText.text(rows)
            #expect(text == String(decoding: try JSONEncoder().encode(rows), as: UTF8.self))
            #expect(BoardRowsText.rows(text) == rows)
        }
    }

    @Test func anythingElseIsLeftToTheJSONDecoder() throws {
        for text in ["", "[", "[[1,2]", "[[1,,2]]", "[[1] [2]]", "[ [1] ]", "[[1]],", "[1,2]", "[[1],]", "[[12345678901]]", "[[1.5]]", "null"] {
            #expect(BoardRowsText.rows(text) == nil, "\(text)")
        }
        // A file an earlier flapd wrote with spaces still reads, through the decoder.
        #expect(try JSONDecoder().decode([[Int]].self, from: Data("[ [1, 2] ]".utf8)) == [[1, 2]])
    }
}
