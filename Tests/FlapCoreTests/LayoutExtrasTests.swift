import Testing

@testable import FlapCore

/// What layout does beyond vesta: substitutions, justified rows, other board sizes, warnings.
@Suite struct LayoutExtrasTests {
    func codes(_ text: String) -> [Int] {
        text.unicodeScalars.map { Int(CharacterCode(character: $0)!.rawValue) }
    }

    @Test func accentsFoldAndEachSubstitutionIsReportedWithItsPlace() throws {
        let result = try TextLayout.encodeText("Café\nnaïve", options: LayoutOptions())
        #expect(Array(result.rows[0].prefix(4).map { Int($0.rawValue) }) == codes("CAFE"))
        #expect(Array(result.rows[1].prefix(5).map { Int($0.rawValue) }) == codes("NAIVE"))
        #expect(result.warnings.map(\.line) == [1, 2])
        #expect(result.warnings.map(\.position) == [4, 3])
        #expect(result.warnings[0].text == "'é' shown as 'E'")
    }

    @Test func typographicMarksBecomePlain() throws {
        let result = try TextLayout.encode("“Hi” ‘there’… – ok", substitutions: true)
        #expect(result.rows[0].map { Int($0.rawValue) } == codes("\"HI\" 'THERE'... - OK"))
        #expect(result.warnings.count == 6)
    }

    @Test func colourEmojiBecomeChipsAndTheHeartIsRed() throws {
        let result = try TextLayout.encode("🟥🟧🟨🟩🟦🟪⬜⬛ ❤️ ❤", substitutions: true)
        #expect(result.rows[0].map { Int($0.rawValue) } == [63, 64, 65, 66, 67, 68, 69, 70, 0, 63, 0, 63])
        // The variation selector after ❤ belongs to it: one warning, not two.
        #expect(result.warnings.filter { $0.position == 10 }.count == 1)
        #expect(result.warnings.contains { $0.position == 11 } == false)
    }

    @Test func decomposedAccentsDropTheirMarks() throws {
        let result = try TextLayout.encode("e\u{301}t", substitutions: true)
        #expect(result.rows[0].map { Int($0.rawValue) } == codes("ET"))
        #expect(result.warnings.first?.position == 2)
    }

    @Test func withoutSubstitutionsTheErrorIsVestas() {
        #expect(throws: LayoutError(line: 1, position: 4, reason: "unsupported character: É")) {
            var options = LayoutOptions()
            options.substitutions = false
            return try TextLayout.encodeText("Café", options: options)
        }
    }

    @Test func whatCannotBeSubstitutedStillFailsWithItsPosition() {
        #expect(throws: LayoutError(line: 2, position: 3, reason: "unsupported character: ~")) {
            try TextLayout.encodeText("ok\nab~", options: LayoutOptions())
        }
    }

    @Test func justifiedRowsSpanTheWidthExceptAParagraphsLast() throws {
        var options = LayoutOptions()
        options.align = .justified
        options.columns = 15
        options.maxRows = 0
        let rows = try TextLayout.encodeText("the quick fox jumps over", options: options).rows
        let text = rows.map { String($0.map { $0.character! }) }
        #expect(text == ["THE  QUICK  FOX", "JUMPS OVER     "])
    }

    @Test func justifiedWidensGapsFromTheLeft() {
        let shape = RowShape(columns: 12, margin: 1, align: .justified, fill: .blank)
        let row = try! shape.format(ArraySlice(codes("A B C").compactMap { CharacterCode($0) }), endsParagraph: false, lineNumber: 1)
        #expect(String(row.map { $0.character! }) == " A    B   C ")
    }

    @Test func anyBoardSizeLaysOut() throws {
        let note = try TextLayout.encodeText("hello note", options: LayoutOptions(size: .note))
        #expect(note.rows.count == 3 && note.rows.allSatisfy { $0.count == 15 })
        let custom = try TextLayout.encodeText("wide", options: LayoutOptions(size: BoardSize(rows: 24, columns: 88)))
        #expect(custom.rows.count == 24 && custom.rows.allSatisfy { $0.count == 88 })
    }

    @Test func rowsBeyondTheBoardAreCutWithAWarning() throws {
        var options = LayoutOptions(size: .note)
        options.columns = 15
        let result = try TextLayout.encodeText("1\n2\n3\n4\n5", options: options)
        #expect(result.rows.count == 3)
        #expect(result.warnings.map(\.text) == ["the text needs 5 rows and the board shows 3: rows 4–5 were cut"])
    }

    @Test func aMarginThatLeavesNoRoomIsAnErrorNotALoop() {
        var options = LayoutOptions()
        options.margin = 11
        #expect(throws: LayoutError.self) { try TextLayout.encodeText("HELLO", options: options) }
        #expect((try? TextLayout.encodeText("", options: options))?.rows.count == 6)
    }

    @Test func pythonReprMatchesPythonForTheUsualCases() {
        #expect(PythonText.repr(Array("abc".unicodeScalars)) == "'abc'")
        #expect(PythonText.repr(Array("it's".unicodeScalars)) == "\"it's\"")
        #expect(PythonText.repr(Array("a'b\"".unicodeScalars)) == "'a\\'b\"'")
        #expect(PythonText.repr(Array("t\tn\n\u{7F}\u{200B}".unicodeScalars)) == "'t\\tn\\n\\x7f\\u200b'")
    }

    @Test func pythonIntAcceptsWhatPythonAccepts() {
        func int(_ s: String) -> Int? { PythonText.int(ArraySlice(s.unicodeScalars)) }
        #expect(int(" 5") == 5)
        #expect(int("+5") == 5)
        #expect(int("-1") == -1)
        #expect(int("０７") == 7)
        #expect(int("1_0") == 10)
        #expect(int("_1") == nil)
        #expect(int("a") == nil)
        #expect(int(" ") == nil)
    }

    @Test func absurdSizesAreRefusedNotAttemptedAndUnpaddedRowsComeOnlyAsNeeded() throws {
        var options = LayoutOptions()
        options.maxRows = 1_000_000_000_000
        #expect(throws: LayoutError.self) { try TextLayout.encodeText("hi", options: options) }
        options.maxRows = Int.max
        do {
            _ = try TextLayout.encodeText("hi", options: options)
            Issue.record("Int.max rows were laid out")
        } catch {
            #expect(error.reason.contains("more than the 1000000 codes"))
        }
        // vesta's valign None: no padding, so only the rows the text needs, however many are allowed.
        options.valign = nil
        let laid = try TextLayout.encodeText("one\ntwo", options: options)
        #expect(laid.rowCount == 2 && laid.codes.count == 44)
        options.maxRows = 1
        let cut = try TextLayout.encodeText("one\ntwo\nthree", options: options)
        #expect(cut.rows.count == 1 && cut.codes.count == 22 && cut.warnings.count == 1)
        options.columns = 10_000_000
        #expect(throws: LayoutError.self) { try TextLayout.encodeText("hi", options: options) }
        #expect(throws: LayoutError.self) { try TextLayout.encodeRow("hi", columns: 10_000_000) }
    }
}
