import FlapJSON

/// RFC 6901: `/current/temperature_2m`, `/list/0/title`, `~1` for a `/` in a name and `~0` for
/// a `~`. Hand-written: a few lines no listed package offers on JSONValue.
public struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    /// A pointer that cannot be read, and why.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the part of the pointer.
        public var description: String
    }

    /// The reference tokens, unescaped (`~1` is `/`, `~0` is `~`).
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Reads `text`: empty for the whole document, else tokens each after a `/`.
    public init(_ text: String) throws(Problem) {
        description = text
        guard !text.isEmpty else { tokens = []; return }
        guard text.hasPrefix("/") else {
            throw Problem(description: "\(text.debugDescription) is not a JSON Pointer: it starts with / (such as /current/temperature_2m)")
        }
        var tokens: [String] = []
        for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = "", escaped = false
            for character in part {
                if escaped {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: throw Problem(description: "\(text.debugDescription): ~\(character) is not an escape (~0 is ~, ~1 is /)")
                    }
                    escaped = false
                } else if character == "~" {
                    escaped = true
                } else {
                    token.append(character)
                }
            }
            if escaped { throw Problem(description: "\(text.debugDescription) ends in ~ (~0 is ~, ~1 is /)") }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The value it points at in `document`, or a problem saying which part is not there.
    public func resolve(in document: JSONValue) -> Result<JSONValue, Problem> {
        var value = document, path = ""
        for token in tokens {
            path += "/" + token.replacing("~", with: "~0").replacing("/", with: "~1")
            switch value {
            case .object(let members):
                guard let member = members[token] else { return .failure(Problem(description: "\(path) is not in the document")) }
                value = member
            case .array(let elements):
                // RFC 6901: an index is 0 or digits without a leading zero.
                guard let index = Int(token), String(index) == token, index >= 0 else {
                    return .failure(Problem(description: "\(path): \(token.debugDescription) is not an index of the list there"))
                }
                guard index < elements.count else {
                    return .failure(Problem(description: "\(path): the list there has \(elements.count) items"))
                }
                value = elements[index]
            default:
                return .failure(Problem(description: "\(path): the value before it is not an object or a list"))
            }
        }
        return .success(value)
    }
}
