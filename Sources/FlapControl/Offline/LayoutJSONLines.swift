import FlapCore
import FoundationEssentials

/// The `--jsonl` mode of `flapctl layout`: one request per stdin line, one answer per stdout
/// line, in order, for any number of requests; a bad request gets an error answer, never an exit.
package struct LayoutJSONLines {
    package var defaults: LayoutOptions

    package init(defaults: LayoutOptions) { self.defaults = defaults }

    func run() {
        let out = StandardStream.bufferedOutput()
        let decoder = JSONDecoder()
        var number = 0
        var json = JSONText()
        InputLines.forEach { line in
            number += 1
            if line.contains(where: { $0 >= 0x80 }) {
                // Bytes beyond ASCII are read as readLine reads them (invalid UTF-8 repaired).
                var text = String(decoding: line, as: UTF8.self)
                text.withUTF8 { answer($0, number: number, decoder: decoder, into: &json) }
            } else {
                answer(line, number: number, decoder: decoder, into: &json)
            }
            json.raw("\n")
            if json.bytes.count >= 1 << 16 {
                out.write(bytes: json.bytes)
                json.clear()
            }
        }
        out.write(bytes: json.bytes)
        out.flush()
    }

    /// The answer to one request, `line` being valid UTF-8.
    package func answer(_ line: UnsafeBufferPointer<UInt8>, number: Int, decoder: JSONDecoder, into json: inout JSONText) {
        var request = LayoutRequest(text: "")
        if !LayoutRequestReader.read(line, into: &request) {
            do {
                request = try decoder.decode(LayoutRequest.self, from: Data(line))
            } catch {
                return writeError(LayoutRequest.describe(error), request: number, into: &json)
            }
        }
        let options: LayoutOptions
        do {
            options = try request.options(defaults: defaults)
        } catch {
            return writeError(error.description, request: number, into: &json)
        }
        do {
            let result = try TextLayout.encodeText(request.text, options: options)
            json.raw(#"{"rows":"#)
            json.rows(result)
            json.raw(#","warnings":"#)
            json.array(result.warnings) { $0.string($1.description) }
            json.raw("}")
        } catch {
            writeError(error.message, line: error.line, position: error.position, request: number, into: &json)
        }
    }

    private func writeError(
        _ message: String, line: Int? = nil, position: Int? = nil, request: Int, into json: inout JSONText
    ) {
        json.raw("{")
        json.key("error", first: true)
        json.string(message)
        if let line {
            json.key("line")
            json.int(line)
        }
        if let position {
            json.key("position")
            json.int(position)
        }
        json.key("request")
        json.int(request)
        json.raw("}")
    }
}

/// One `--jsonl` request. Every field but `text` is optional; `valign` null or "none" is
/// vesta's None; `fill` and `breaks` are codes (or colour names).
struct LayoutRequest: Decodable, Equatable {
    var text: String
    var align: String?
    var valign: String??
    var margin: Int?
    var fill: CodeValue?
    var maxRows: Int?
    var columns: Int?
    var breaks: [CodeValue]?
    var substitutions: Bool?

    enum CodingKeys: String, CodingKey { case text, align, valign, margin, fill, maxRows, columns, breaks, substitutions }

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        text = try c.decode(String.self, forKey: .text)
        align = try c.decodeIfPresent(String.self, forKey: .align)
        if c.contains(.valign) {
            valign = .some(try c.decodeNil(forKey: .valign) ? nil : try c.decode(String.self, forKey: .valign))
        }
        margin = try c.decodeIfPresent(Int.self, forKey: .margin)
        fill = try c.decodeIfPresent(CodeValue.self, forKey: .fill)
        maxRows = try c.decodeIfPresent(Int.self, forKey: .maxRows)
        columns = try c.decodeIfPresent(Int.self, forKey: .columns)
        breaks = try c.decodeIfPresent([CodeValue].self, forKey: .breaks)
        substitutions = try c.decodeIfPresent(Bool.self, forKey: .substitutions)
    }

    func options(defaults: LayoutOptions) throws(InputError) -> LayoutOptions {
        var o = defaults
        if let align {
            guard let a = HorizontalAlignment.allCases.first(where: { $0.rawValue == align }) else {
                throw InputError("align \"\(align)\": give left, center, right or justified")
            }
            o.align = a
        }
        if let valign {
            o.valign = try LayoutArguments.verticalAlignment(valign)
        }
        if let margin { o.margin = margin }
        if let fill { o.fill = try fill.code(field: "fill") }
        if let maxRows { o.maxRows = maxRows }
        if let columns {
            guard columns >= 1 else { throw InputError("columns must be at least 1, not \(columns)") }
            o.columns = columns
        }
        if let breaks {
            var set: Set<CharacterCode> = []
            for b in breaks { set.insert(try b.code(field: "breaks")) }
            o.breaks = set
        }
        if let substitutions { o.substitutions = substitutions }
        return o
    }

    /// A decoding failure in words: which field, what was wrong.
    static func describe(_ error: any Error) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "the request has no \"\(key.stringValue)\""
        case DecodingError.typeMismatch(let type, let context), DecodingError.valueNotFound(let type, let context):
            let path = field(context.codingPath)
            return path.isEmpty ? "a request must be a JSON object" : "\"\(path)\" must be \(typeName(type))"
        case DecodingError.dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "\"\(field(context.codingPath))\": \(context.debugDescription)"
        default:
            return "not valid JSON"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Bool.Type: "true or false"
        default: "of another type"
        }
    }
}

/// A code in a request: a number, or a colour name.
struct CodeValue: Decodable, Equatable {
    var number: Int?
    var name: String?

    init(number: Int) { self.number = number }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let n = try? c.decode(Int.self) { number = n } else { self = CodeValue(text: try c.decode(String.self)) }
    }

    /// A code written as text: a colour's own name is its code at once (as the requests' fast
    /// reader makes it too); anything else (capitals, spaces, a number in quotes) is read later.
    init(text: String) {
        if let colour = Colour.allCases.first(where: { $0.name == text }) { number = Int(colour.rawValue) } else { name = text }
    }

    func code(field: String) throws(InputError) -> CharacterCode {
        // A number is a code or nothing: no need to make it text and read it back.
        if let number, let code = CharacterCode(number) { return code }
        return try LayoutArguments.code(number.map(String.init) ?? name ?? "", option: field)
    }
}
