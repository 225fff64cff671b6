/// Text that cannot be laid out, with where the problem is.
///
/// ``message`` is the text the Python `vesta` library gives for the same input
/// (`"5: missing } at index 6 or 7"`, `"3: unsupported character: ~"`), so scripts written
/// against vesta read the same errors. Positions count Unicode code points from 1 within a line.
public struct LayoutError: Error, Equatable, Sendable {
    /// 1-based line of the text (after splitting at line breaks), or nil when not tied to a line.
    public var line: Int?
    /// 1-based code-point position within the line, or nil when not tied to a position.
    public var position: Int?
    /// What is wrong, without the position.
    public var reason: String

    /// An error at `line` and `position` (either may be unknown).
    public init(line: Int? = nil, position: Int? = nil, reason: String) {
        self.line = line
        self.position = position
        self.reason = reason
    }

    /// The error as vesta words it: `"<position>: <reason>"`, or the reason alone.
    public var message: String {
        position.map { "\($0): \(reason)" } ?? reason
    }
}

extension LayoutError: CustomStringConvertible {
    /// The message with the line it occurred on, for people.
    public var description: String {
        line == nil ? message : placed(reason, line: line, position: position)
    }
}

/// Something layout did that the sender may not expect: a substitution, cut rows.
public struct LayoutWarning: Equatable, Sendable, CustomStringConvertible {
    /// 1-based line, when the warning is about one place in the text.
    public var line: Int?
    /// 1-based code-point position within the line.
    public var position: Int?
    /// What happened.
    public var text: String

    /// A warning at `line` and `position` (either may be unknown).
    public init(line: Int? = nil, position: Int? = nil, text: String) {
        self.line = line
        self.position = position
        self.text = text
    }

    /// The warning with where it is, for people.
    public var description: String { placed(text, line: line, position: position) }
}

/// `text` prefixed with where in the text it applies: "line 2, position 5: …".
func placed(_ text: String, line: Int?, position: Int?) -> String {
    switch (line, position) {
    case (let line?, let position?): "line \(line), position \(position): \(text)"
    case (let line?, nil): "line \(line): \(text)"
    default: text
    }
}
