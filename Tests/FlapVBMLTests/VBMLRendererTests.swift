import FlapJSON
import Testing

@testable import FlapVBML

/// What Vestaboard's own (Node) renderer does where pyvbml differs, and flapd's errors.
@Suite struct VBMLRendererTests {
    static func render(_ json: JSONValue, rows: Int? = nil, columns: Int? = nil) throws -> [[Int]] {
        try VBMLRenderer.render(try VBMLDocument(json: json), rows: rows, columns: columns)
    }

    static func row(_ json: JSONValue) throws -> [Int] { try render(json)[0] }

    @Test func propsAreEscapedAsMustacheJSEscapesThemUnlessTripled() throws {
        let props: JSONValue = ["who": "Tom & Jerry"]
        // {{who}} is HTML-escaped by mustache.js, so the board shows the entity, as Vestaboard's does.
        #expect(
            try Self.row(["props": props, "components": [["template": "{{who}}"]]]).prefix(14)
                == [20, 15, 13, 0, 47, 1, 13, 16, 49, 0, 10, 5, 18, 18])
        #expect(try Self.row(["props": props, "components": [["template": "{{{who}}}"]]]).prefix(11) == [20, 15, 13, 0, 47, 0, 10, 5, 18, 18, 25])
        #expect(try Self.row(["props": props, "components": [["template": "{{& who}}"]]]).prefix(11) == [20, 15, 13, 0, 47, 0, 10, 5, 18, 18, 25])
    }

    @Test func mustacheSectionsLoopsAndStandaloneLines() throws {
        #expect(try Mustache.render("{{#items}}{{name}},{{/items}}", props: ["items": [["name": "A"], ["name": "B"]]]) == "A,B,")
        #expect(try Mustache.render("{{#on}}yes{{/on}}{{^on}}no{{/on}}", props: ["on": false]) == "no")
        #expect(try Mustache.render("{{a.b.c}}", props: ["a": ["b": ["c": 5]]]) == "5")
        #expect(try Mustache.render("{{n}} {{x}} {{t}}", props: ["n": 2.5, "x": 1e21, "t": true]) == "2.5 1e+21 true")
        #expect(try Mustache.render("{{! a comment }}A", props: [:]) == "A")
        // A tag alone on its line takes the line with it.
        #expect(try Mustache.render("A\n{{#on}}\nB\n{{/on}}\nC", props: ["on": true]) == "A\nB\nC")
        #expect(throws: Mustache.Problem.self) { try Mustache.render("{{#a}}open", props: [:]) }
        #expect(throws: Mustache.Problem.self) { try Mustache.render("{{/a}}", props: [:]) }
    }

    /// Three sections over a 280-item prop (1 390 bytes) took 32 s and 340 MB: a template past
    /// its budget is refused, saying which budget, for every way VBML arrives.
    @Test func templatesPastTheirBudgetAreRefusedWithTheReason() throws {
        let list = JSONValue.array((0..<280).map { .number(Double($0)) })
        let loops = "{{#l}}{{#l}}{{#l}}x{{/l}}{{/l}}{{/l}}"
        #expect(
            throws: Mustache.Problem(description: "the template's sections repeat more than 10000 times (sections over long lists inside each other)")
        ) {
            try Mustache.render(loops, props: ["l": list])
        }
        do {
            _ = try Self.render(["props": ["l": list], "components": [["template": .string(loops)]]])
            Issue.record("rendered")
        } catch let problem as VBMLProblem {
            #expect(problem.description.contains("template") && problem.description.contains("repeat more than 10000 times"), "\(problem)")
        }
        // Output: a 1 KB prop repeated by a short list within the passes.
        let wide = JSONValue.string(String(repeating: "W", count: 1_000))
        #expect(throws: Mustache.Problem(description: "the template renders to more than 64 KiB (a board shows a few hundred characters)")) {
            try Mustache.render("{{#l}}{{w}}{{/l}}", props: ["l": list, "w": wide])
        }
        // Nesting: sections 40 deep.
        let nested = String(repeating: "{{#a}}", count: 40) + String(repeating: "{{/a}}", count: 40)
        #expect(throws: Mustache.Problem.self) { try Mustache.render(nested, props: ["a": true]) }
        // Within the budget, as before: a few events' titles.
        #expect(try Mustache.render("{{#e}}{{t}} {{/e}}", props: ["e": [["t": "A"], ["t": "B"]]]) == "A B ")
    }

    @Test func heartsTypographicQuotesAndEmojiAreReadAsVestaboardReadsThem() throws {
        // Every heart is the code 62 (a heart on the Note, ° on the Flagship).
        #expect(try Self.row(["components": [["template": "❤️ 💙 ❤"]]]).prefix(5) == [62, 0, 62, 0, 62])
        // The typographic apostrophe is the straight one.
        #expect(try Self.row(["components": [["template": "it’s"]]]).prefix(4) == [9, 20, 52, 19])
        // An emoji outside the table: two blanks, one a UTF-16 unit each, as in JavaScript.
        #expect(try Self.row(["components": [["template": "A🦄B"]]]).prefix(4) == [1, 0, 0, 2])
        #expect(try Self.row(["components": [["template": "Grüße ½"]]]).prefix(10) == [7, 18, 21, 5, 19, 19, 5, 0, 27, 59])
    }

    @Test func aCalendarWithoutAPositionTakesABlankBoxInTheFlow() throws {
        let board = try Self.render(["components": [["calendar": ["month": 11, "year": 2026, "days": ["26": 66]]], ["template": "HI"]]])
        // The calendar's blank box fills the first line of boxes; "HI" wraps below the board.
        #expect(board.flatMap { $0 }.contains(8) == false)
        #expect(board[0].prefix(5) == [27, 27, 59, 28, 32])  // 11/26
        #expect(board[0][5...11] == [19, 13, 20, 23, 20, 6, 19])  // S M T W T F S
        #expect(board[4][9] == 66, "26 November 2026 is a Thursday in the fourth week")
    }

    @Test func placementAndTheBoardsSize() throws {
        let doc: JSONValue = ["style": ["height": 3, "width": 15], "components": [["template": "NOTE"]]]
        #expect(try Self.render(doc).count == 3)
        // Smaller than the panel: at its top left.
        let onFlagship = try Self.render(doc, rows: 6, columns: 22)
        #expect(onFlagship.count == 6 && onFlagship[0].count == 22 && onFlagship[0].prefix(4) == [14, 15, 20, 5])
        #expect(throws: VBMLProblem(path: "style.height", message: "6 is taller than the board (3)")) {
            try Self.render(["style": ["height": 6, "width": 22], "components": []], rows: 3, columns: 15)
        }
        // No size given: the panel's.
        #expect(try Self.render(["components": [["template": "A"]]], rows: 3, columns: 15).count == 3)
    }

    @Test func errorsNameTheComponentAndField() throws {
        #expect(throws: VBMLProblem(path: "components[1].style.width", message: "30 is wider than the board (22)")) {
            try Self.render(["components": [["template": "A"], ["template": "B", "style": ["width": 30]]]])
        }
        #expect(throws: VBMLProblem(path: "components[0].style.justify", message: "\"middle\" is not left, right, center or justified")) {
            try Self.render(["components": [["template": "A", "style": ["justify": "middle"]]]])
        }
        #expect(throws: VBMLProblem(path: "components[0].template", message: "{99…} is not a character code the board has (0 to 71)")) {
            try Self.render(["components": [["template": "{99}"]]])
        }
        #expect(throws: VBMLProblem(path: "components[0].rawCharacters[0][1]", message: "72 is not a character code the board has (0 to 71)")) {
            try Self.render(["components": [["rawCharacters": [[1, 72]]]]])
        }
        #expect(
            throws: VBMLProblem(
                path: "components", message: "required: a list of components (each a template, rawCharacters, randomColors or calendar)")
        ) {
            try Self.render(["props": [:]])
        }
        #expect(throws: VBMLProblem(path: "components[0].calendar.month", message: "must be from 1 to 12, not 13")) {
            try Self.render(["components": [["calendar": ["month": 13, "year": 2026]]]])
        }
    }

    @Test func randomColoursComeFromTheSeed() throws {
        let document = try VBMLDocument(json: ["components": [["randomColors": ["colors": [63, 66]]]]])
        let a = try VBMLRenderer.render(document, seed: 7), b = try VBMLRenderer.render(document, seed: 7),
            c = try VBMLRenderer.render(document, seed: 8)
        #expect(a == b && a != c)
        #expect(Set(a.flatMap { $0 }) == [63, 66])
    }

    @Test func rawCharactersAsAPropOrAsJSONText() throws {
        let props: JSONValue = ["art": [[63, 64], [65, 66]], "c": 70]
        #expect(try Self.render(["props": props, "components": [["rawCharacters": "{{art}}"]]])[1].prefix(2) == [65, 66])
        #expect(try Self.render(["props": props, "components": [["rawCharacters": "[[{{c}}, 0]]"]]])[0].prefix(2) == [70, 0])
        // Text that is not rows of codes is an empty box, as in Vestaboard's renderer.
        #expect(try Self.render(["props": props, "components": [["rawCharacters": "not json"], ["template": "A"]]])[0][0] == 1)
    }
}
