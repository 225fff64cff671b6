import FlapCore
import FlapPrimitives

/// One layout request, as the vesta oracle (Tests/Peers/vesta_oracle.py) takes it.
struct VestaRequest: Codable, Sendable {
    var op = "text"
    var text: String
    var align = "left"
    var valign: String? = "top"
    var margin = 0
    var fill = 0
    var maxRows = 6
    var breaks: [Int]? = nil
    var columns = 22

    enum CodingKeys: String, CodingKey { case op, text, align, valign, margin, fill, maxRows, breaks, columns }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(op, forKey: .op)
        try c.encode(text, forKey: .text)
        try c.encode(align, forKey: .align)
        try c.encode(valign, forKey: .valign)  // null is vesta's None
        try c.encode(margin, forKey: .margin)
        try c.encode(fill, forKey: .fill)
        try c.encode(maxRows, forKey: .maxRows)
        try c.encodeIfPresent(breaks, forKey: .breaks)
        try c.encode(columns, forKey: .columns)
    }

    var options: LayoutOptions {
        var o = LayoutOptions()
        o.align = HorizontalAlignment(rawValue: align)!
        o.valign = valign.map { VerticalAlignment(rawValue: $0)! }
        o.margin = margin
        o.fill = CharacterCode(fill)!
        o.maxRows = maxRows
        o.columns = columns
        if let breaks { o.breaks = Set(breaks.map { CharacterCode($0)! }) }
        o.substitutions = false
        return o
    }
}

/// vesta's answer to a request.
struct VestaAnswer: Decodable {
    var rows: [[Int]]?
    var error: String?
    var crash: String?
    var loops: Bool?
}

/// A seeded corpus of layout requests that reaches vesta's corners: long words, runs of
/// spaces, every kind of line break, escapes good and bad, unsupported characters, Unicode
/// that uppercases to more than one letter, margins up to and past the width, odd sizes.
enum VestaCorpus {
    static let words = [
        "HELLO", "world", "a", "the", "Vestaboard", "split-flap", "12:45", "$3.50", "(ok)", "what?", "100%",
        "\"quoted\"", "it's", "x", "pneumonoultramicroscopic", "supercalifragilisticexpialidocious",
        "{63}", "{5}", "{65}{66}{67}", "{0}", "{71}", "{36}", "°C", "a+b=c", "&", "@home", "#1", "one;two",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789", "/path/", "...", ",", "!"
    ]
    static let troubles = [
        "{99}", "{43}", "{5", "{", "{ab}", "{ 5}", "{5 }", "{+5}", "{-1}", "{}", "{}}", "{７}", "{05}",
        "~", "é", "\t", "ß", "ﬁ", "ı", "<b>", "naïve", "{{5}}", "}", "[x]", "\u{7F}", "😀"
    ]
    static let separators = [" ", " ", " ", "  ", "   ", "\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{1C}", "\u{85}", "\u{2028}", " \n ", "\n\n"]

    static func text(_ random: inout SeededRandom, troubleRate: Double) -> String {
        let count = Int(random.next() % 14)
        var text = random.unit() < 0.15 ? " " : ""
        for i in 0..<count {
            if i > 0 { text += separators[Int(random.next() % UInt64(separators.count))] }
            let pool = random.unit() < troubleRate ? troubles : words
            text += pool[Int(random.next() % UInt64(pool.count))]
        }
        if random.unit() < 0.1 { text += "\n" }
        return text
    }

    static func requests(count: Int, seed: UInt64) -> [VestaRequest] {
        var random = SeededRandom(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var requests: [VestaRequest] = []
        for _ in 0..<count {
            var r = VestaRequest(text: text(&random, troubleRate: 0.08))
            r.op = pick(["text", "text", "text", "text", "text", "text", "row", "encode"])
            r.align = pick(["left", "center", "right"])
            r.valign = pick(["top", "middle", "bottom", nil])
            r.margin = pick([0, 0, 0, 1, 2, 3, 5, 10, 11, 12, -1])
            r.fill = pick([0, 0, 0, 63, 66, 69, 70, 71, 5])
            r.maxRows = pick([6, 6, 6, 0, 1, 3, 8, -1])
            r.columns = pick([22, 22, 22, 15, 10, 40, 1])
            if random.unit() < 0.2 { r.breaks = pick([[], [0, 44], [55], [0, 59, 44]]) }
            if r.op == "row" && r.text.contains(where: \.isNewline) { r.op = "text" }
            requests.append(r)
        }
        return requests
    }

    /// Cases worth naming, from vesta's own documentation and its corners.
    static let named: [VestaRequest] = {
        var cases: [VestaRequest] = []
        func add(_ text: String, _ edit: (inout VestaRequest) -> Void = { _ in }) {
            var r = VestaRequest(text: text)
            edit(&r)
            cases.append(r)
        }
        add("multiple\nlines\nof\ntext") {
            $0.align = "center"; $0.valign = "middle"
        }
        add("{67} Hello, World {68}") {
            $0.op = "row"; $0.align = "center"
        }
        add("{67} Hello, World {68}") { $0.op = "encode" }
        add("")
        add("") { $0.valign = nil }
        add("\n")
        add("a\n") { $0.valign = "bottom" }
        add("x" + String(repeating: " y", count: 40)) { $0.maxRows = 2 }
        add(String(repeating: "A", count: 23))
        add(String(repeating: "A", count: 22) + " B")
        add(" " + String(repeating: "A", count: 30))
        add("HELLO") { $0.margin = 11 }
        add("") { $0.margin = 11 }
        add("\n\n") { $0.margin = 11 }
        add("") { $0.margin = 12 }
        add("\n") { $0.margin = 12 }
        add("HI") {
            $0.margin = -1; $0.align = "center"
        }
        add("HI") { $0.margin = -1 }
        add("ßtraße {5}")
        add("ß{5}")
        add("{5")
        add("ab{7")
        add("{99}")
        add("{x}")
        add("héllo")
        add("wörld") { $0.op = "row" }
        add(String(repeating: "B", count: 23)) { $0.op = "row" }
        add("it's \"x\"\t") { $0.op = "row" }
        add("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20") {
            $0.margin = 3; $0.align = "right"
        }
        return cases
    }()
}
