/// Text on its way to a terminal, from flapd or from anyone who wrote to it (a quick message's
/// name, a sender, an error that quotes them): control characters would clear the screen,
/// retitle the window or hide what follows, and direction controls make a line read as
/// something else. Each is shown as its code instead (`\u{1B}`); line breaks and tabs stay.
enum TerminalText {
    /// `text` with every control (C0 but the line break and tab, DEL, C1) and format
    /// character written as `\u{XX}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isHidden(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
        }
        return String(result)
    }

    /// `json` (an answer printed as it came) with the characters JSON may carry raw that a
    /// terminal obeys (DEL, C1 controls, format characters) written as JSON's `\uXXXX`: the same
    /// JSON, harmless on a terminal.
    static func escapedJSON(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isHidden) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard isHidden(scalar), scalar != "\n", scalar.value >= 0x20 else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" || scalar == "\t" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }
}

/// Prints a line of text to stdout with ``TerminalText/escaped(_:)``: every line flapctl prints
/// may hold what someone else wrote, so this stands in for the standard library's `print` in
/// flapctl's commands. A board drawn with colours goes through ``StandardStream/writeTerminalCodes(_:)``.
func print(_ line: String) {
    StandardStream.writeOutput(line + "\n")
}
