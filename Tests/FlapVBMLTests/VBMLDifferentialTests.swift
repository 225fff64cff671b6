import FlapJSON
import FlapPrimitives
import Foundation
import TestSupport
import Testing

@testable import FlapVBML

/// flapd's VBML renderer against pyvbml (Vestaboard's renderer ported to Python, installed from
/// PyPI as the tests' peer) on generated documents: every one drawn the same, cell for cell.
/// The documents stay clear of the places where pyvbml itself departs from Vestaboard's own
/// (Node) renderer, which flapd follows; those are tested on their own in `VBMLRendererTests`:
/// - props are not HTML-escaped by pyvbml (mustache.js escapes `& < > " ' / \` =`), and it
///   writes true as `True` and lists as Python does;
/// - a tag alone on its line is not removed with the line by pyvbml;
/// - pyvbml does not keep a component's lines from starting above its top when there are more
///   lines than rows and it is centred (Vestaboard's renderer starts at the top);
/// - a calendar without an absolute position takes no place in the flow in pyvbml;
/// - `absolutePosition: {}` is not absolute for pyvbml;
/// - rawCharacters as a string is not read by pyvbml;
/// - `defaultDayColor: 0` is blank in pyvbml, yellow in Vestaboard's renderer;
/// - pyvbml reads text by code point, Vestaboard's renderer by UTF-16 unit (an emoji outside its
///   table is one blank there, two here);
/// - pyvbml's table lost the typographic apostrophes (`’`, `‘` are dropped there; they are `'`
///   in Vestaboard's renderer);
/// - pyvbml predates the coloured hearts (🧡 💛 💚 💙 💜 🖤 🤍 🤎 and a bare ❤ are the code
///   `{62}` in Vestaboard's renderer 1.3.5, a ° character in pyvbml 0.3.1, which wraps apart);
/// - random colours are random in both (flapd's are seeded).
@Suite(.timeLimit(.minutes(3))) struct VBMLDifferentialTests {
    static let count = 1000

    @Test func generatedDocumentsAreDrawnAsPyvbmlDrawsThem() async throws {
        var random = SeededRandom(seed: 20261126)
        var documents: [JSONValue] = []
        while documents.count < Self.count {
            let document = VBMLDocumentGenerator.document(&random)
            if VBMLDocumentGenerator.hasKnownDifference(document) { continue }
            documents.append(document)
        }
        let input = documents.map { String(decoding: try! JSONEncoder().encode($0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let output = try await PythonPeer.runScript("vbml_peer.py", arguments: [], input: Data(input.utf8))
        let answers = String(decoding: output, as: UTF8.self).split(separator: "\n").map { try! JSONValue(parsing: Array($0.utf8)) }
        try #require(answers.count == documents.count, "pyvbml answered \(answers.count) of \(documents.count)")
        var disagreements: [String] = []
        for (document, answer) in zip(documents, answers) {
            let theirs = answer["rows"]?.array?.map { $0.array?.compactMap(\.int) ?? [] }
            let ours: [[Int]]?
            do { ours = try VBMLRenderer.render(try VBMLDocument(json: document)) } catch { ours = nil }
            if ours != theirs {
                let text = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
                disagreements.append("\(text)\n  ours:   \(ours.map { "\($0)" } ?? "refused")\n  pyvbml: \(theirs.map { "\($0)" } ?? answer.text)")
            }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(documents.count) documents drawn differently:\n\(disagreements.prefix(5).joined(separator: "\n"))")
    }
}

/// Random VBML documents made of what both renderers are meant to draw the same.
enum VBMLDocumentGenerator {
    static let words = [
        "HELLO", "world", "Dinner", "at", "7:30", "GO!", "a", "Zürich", "Café", "½", "ßig", "naïve", "100%", "(ok)",
        "#1", "$5", "x+y=z", "a/b", "\u{201C}hi\u{201D}", "—", "…", "SUPERCALIFRAGILISTIC", "ÆON", "über"
    ]
    static let codes = ["{63}", "{64}", "{65}", "{66}", "{67}", "{68}", "{69}", "{70}", "{0}", "{1}", "{62}", "{36}"]
    static let emoji = ["🟥", "🟩", "⬛", "⬜", "❤️"]

    static func pick<T>(_ items: [T], _ random: inout SeededRandom) -> T { items[Int(random.next() % UInt64(items.count))] }
    static func chance(_ percent: UInt64, _ random: inout SeededRandom) -> Bool { random.next() % 100 < percent }

    static func document(_ random: inout SeededRandom) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        var height = 6, width = 22
        if chance(40, &random) {
            height = 2 + Int(random.next() % 7)
            width = 8 + Int(random.next() % 23)
            fields["style"] = ["height": .number(Double(height)), "width": .number(Double(width))]
        }
        fields["props"] = ["name": "Sam", "count": 3, "on": true, "off": false, "items": ["TEA", "CAKE"], "empty": "", "none": []]
        var components: [JSONValue] = []
        for _ in 0..<(1 + Int(random.next() % 4)) { components.append(component(&random, height: height, width: width)) }
        fields["components"] = .array(components)
        return .object(fields)
    }

    static func component(_ random: inout SeededRandom, height: Int, width: Int) -> JSONValue {
        var style: [String: JSONValue] = [:]
        if chance(60, &random) { style["justify"] = .string(pick(["left", "right", "center", "justified"], &random)) }
        if chance(60, &random) { style["align"] = .string(pick(["top", "bottom", "center", "justified", "absolute"], &random)) }
        if chance(50, &random) { style["width"] = .number(Double(1 + Int(random.next() % UInt64(width)))) }
        if chance(50, &random) { style["height"] = .number(Double(1 + Int(random.next() % UInt64(height)))) }
        if chance(20, &random) {
            style["absolutePosition"] = ["x": .number(Double(random.next() % UInt64(width))), "y": .number(Double(random.next() % UInt64(height)))]
        }
        switch random.next() % 10 {
        case 0:
            let rows = (0..<(1 + Int(random.next() % 3))).map { _ in
                JSONValue.array((0..<(1 + Int(random.next() % 5))).map { _ in .number(Double(pick([0, 1, 5, 27, 63, 66, 70], &random))) })
            }
            return ["rawCharacters": .array(rows), "style": .object(style)]
        case 1:
            var calendar: [String: JSONValue] = [
                "month": .number(Double(1 + random.next() % 12)), "year": .number(Double(2000 + random.next() % 40)),
                "days": [String(1 + random.next() % 28): 63, String(1 + random.next() % 31): 66]
            ]
            if chance(30, &random) { calendar["defaultDayColor"] = .number(Double(pick([63, 66, 67, 69], &random))) }
            for flag in ["hideSMTWTFS", "hideDates", "hideMonthYear"] where chance(25, &random) { calendar[flag] = true }
            return ["calendar": .object(calendar), "style": ["absolutePosition": ["x": .number(Double(random.next() % 10)), "y": 0]]]
        default:
            return ["template": .string(template(&random)), "style": .object(style)]
        }
    }

    static func template(_ random: inout SeededRandom) -> String {
        var text = ""
        for index in 0..<(1 + Int(random.next() % 9)) {
            if index > 0 { text += pick([" ", " ", " ", "\n", "\n\n", "  "], &random) }
            switch random.next() % 10 {
            case 0: text += pick(codes, &random)
            case 1: text += pick(emoji, &random)
            case 2: text += pick(["{{name}}", "{{count}}", "{{missing}}"], &random)
            case 3:
                text += pick(
                    [
                        "A{{#on}}ON{{/on}}B", "A{{^off}}OFF{{/off}}B", "[{{#items}}{{.}},{{/items}}]", "X{{^none}}NONE{{/none}}Y",
                        "Q{{#empty}}E{{/empty}}R"
                    ], &random)
            default: text += pick(words, &random)
            }
        }
        return text
    }

    /// Whether the document reaches a place where pyvbml departs from Vestaboard's renderer: a
    /// centred or justified component with more lines than rows.
    static func hasKnownDifference(_ json: JSONValue) -> Bool {
        guard let document = try? VBMLDocument(json: json) else { return false }
        let height = document.height ?? 6, width = document.width ?? 22
        for component in document.components {
            guard case .template(let template) = component.content, component.style.align == .center || component.style.align == .justified else {
                continue
            }
            let w = component.style.width ?? width, h = component.style.height ?? height
            guard let filled = try? Mustache.render(VBMLCharacters.replacingEmoji(template), props: document.props) else { continue }
            let lines = VBMLText.lines(VBMLText.words(VBMLCharacters.sanitized(Array(filled.utf16)), width: w), width: w)
            if lines.count > h { return true }
        }
        return false
    }
}
