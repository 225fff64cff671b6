import FlapJSON

/// `{{name}}` in the text of a quick message or a schedule, filled when it is sent: the board's
/// local date and time (``LocalProps``) and the sending's `props`, so a schedule saying
/// `GOOD MORNING {{weekday}}` shows the day. Only names, no sections: VBML is there for more. A
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
            if let value = values[name].flatMap(Self.text) {
                output += value
            } else if lenient {
                output += name
            } else {
                let known = values.keys.sorted().joined(separator: ", ")
                throw MessageErrors(field: "text", "\(place(open.lowerBound)): {{\(name)}} is not a placeholder; there are \(known)")
            }
            rest = rest[close.upperBound...]
        }
        return output + rest
    }

    /// A value as text: strings as they are, whole numbers without a point, true and false.
    static func text(_ value: JSONValue) -> String? {
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
