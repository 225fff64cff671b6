import FlapJSON

/// `{{name}}` in the text of a quick message or a schedule, filled when it is sent: the board's
/// local date and time (``LocalProps``), the sources' values (`{{weather.temperature}}`) and the
/// sending's `props`, so a schedule saying `GOOD MORNING {{weekday}}` shows the day. Only names, no sections: VBML is there for more. A
/// name nothing fills is an error naming it and where it is, never an empty gap on the wall.
public enum TextPlaceholders {
    /// Whether `text` names any placeholder.
    public static func named(in text: String) -> Bool { text.contains("{{") }

    /// `text` with every `{{name}}` (spaces inside allowed) replaced by its value. `lenient`
    /// puts a name nothing fills in its own place, for checking a quick message's layout before
    /// it is sent with its props.
    public static func fill(_ text: String, values: [String: JSONValue], lenient: Bool = false) throws(MessageErrors) -> String {
        var output = "", rest = Substring(text)
        /// Where a placeholder starts, as the layout's errors say it: line, then character in that line.
        func place(_ index: String.Index) -> String {
            let before = text[..<index]
            return "line \(before.filter(\.isNewline).count + 1), position \(before.reversed().prefix { !$0.isNewline }.count + 1)"
        }
        while let open = rest.firstRange(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else {
                throw MessageErrors(field: "text", "\(place(open.lowerBound)): {{ is not closed with }}")
            }
            let name = rest[open.upperBound..<close.lowerBound].trimmingSpaces
            switch Self.lookup(name, in: values) {
            case .found(let value):
                output += value
            case .missing where lenient:
                output += name
            case .missing(let within, let known):
                let what = within.map { "\($0) has" } ?? "there are"
                throw MessageErrors(
                    field: "text", "\(place(open.lowerBound)): {{\(name)}} is not a placeholder; \(what) \(known.joined(separator: ", "))")
            }
            rest = rest[close.upperBound...]
        }
        return output + rest
    }

    enum Lookup {
        case found(String)
        /// Not there: the deepest part that was, and the names it has.
        case missing(within: String?, known: [String])
    }

    /// `name`, or a dotted path into sources' values: `weather.temperature`, `calendar.events.1.title`
    /// (a list's items counted from 0).
    static func lookup(_ name: String, in values: [String: JSONValue]) -> Lookup {
        if let value = values[name].flatMap(text) { return .found(value) }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, var current = values[parts[0]] else { return .missing(within: nil, known: values.keys.sorted()) }
        var path = parts[0]
        for part in parts.dropFirst() {
            switch current {
            case .object(let members) where members[part] != nil: current = members[part] ?? .null
            case .array(let items) where Int(part).map(items.indices.contains) == true: current = items[Int(part) ?? 0]
            case .object(let members): return .missing(within: path, known: members.keys.sorted())
            case .array(let items): return .missing(within: path, known: items.indices.map(String.init))
            default: return .missing(within: path, known: [])
            }
            path += "." + part
        }
        return text(current).map(Lookup.found) ?? .missing(within: path, known: current.object?.keys.sorted() ?? [])
    }

    /// A value as text: strings as they are, whole numbers without a point, true and false.
    public static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: nil
        }
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
