import FlapTOML

/// Where a setting is, as flapd's errors name it: `listen`, `sound.volume`, `panel[0].rows`,
/// `source[1].headers.Accept`. Tables are named by their keys, and each table of an array of
/// tables (`[[panel]]`) by its place, from 0.
public struct SettingPath: Sendable, Hashable, CustomStringConvertible {
    /// One step: a key of a table, or a place in an array.
    public enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps, from the top of the file.
    public var steps: [Step]

    /// The path of `steps`.
    public init(_ steps: [Step]) { self.steps = steps }

    /// The longest a path may be written, and the most steps: deeper than any setting of flapd.
    public static let longest = 256, deepest = 8

    /// What is wrong with a written path, and where.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The column, from 1, of the character that is wrong.
        public var column: Int
        /// What is wrong there.
        public var message: String
        /// "column C: what is wrong".
        public var description: String { "column \(column): \(message)" }
    }

    /// Reads `text`: keys of letters, digits, `_` and `-`, joined by dots, each optionally
    /// followed by `[N]`.
    public init(parsing text: String) throws(Problem) {
        let characters = Array(text)
        guard !characters.isEmpty else { throw Problem(column: 1, message: "no setting named; give one such as sound.volume") }
        guard characters.count <= Self.longest else { throw Problem(column: Self.longest + 1, message: "longer than \(Self.longest) characters") }
        var steps: [Step] = []
        var index = 0
        while index < characters.count {
            let start = index
            while index < characters.count, Self.isKeyCharacter(characters[index]) { index += 1 }
            guard index > start else { throw Self.unexpected(characters, at: index, wanted: "a key") }
            steps.append(.key(String(characters[start..<index])))
            while index < characters.count, characters[index] == "[" {
                let open = index
                index += 1
                let digits = index
                while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                guard index > digits, index - digits <= 4, let place = Int(String(characters[digits..<index])) else {
                    throw Self.unexpected(characters, at: index > digits ? digits : index, wanted: "a place such as [0]")
                }
                guard index < characters.count, characters[index] == "]" else {
                    throw Problem(column: index + 1, message: "the [ at column \(open + 1) is not closed")
                }
                index += 1
                steps.append(.index(place))
            }
            guard index < characters.count else { break }
            guard characters[index] == "." else { throw Self.unexpected(characters, at: index, wanted: "a dot or the end") }
            index += 1
            guard index < characters.count else { throw Problem(column: index, message: "ends with a dot; a key must follow it") }
        }
        guard steps.count <= Self.deepest else { throw Problem(column: 1, message: "deeper than \(Self.deepest) steps") }
        self.steps = steps
    }

    private static func isKeyCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
    }

    private static func unexpected(_ characters: [Character], at index: Int, wanted: String) -> Problem {
        guard index < characters.count else { return Problem(column: index + 1, message: "ends where \(wanted) should be") }
        return Problem(
            column: index + 1,
            message:
                "\(characters[index].unicodeScalars.first.map { "U+" + String($0.value, radix: 16, uppercase: true) } ?? "") \(String(characters[index]).debugDescription) where \(wanted) should be"
        )
    }

    /// The path as flapd's errors write it.
    public var description: String {
        var text = ""
        for step in steps {
            switch step {
            case .key(let name): text += text.isEmpty ? name : "." + name
            case .index(let place): text += "[\(place)]"
            }
        }
        return text
    }

    /// This path and one step more.
    public func appending(_ step: Step) -> SettingPath { SettingPath(steps + [step]) }
}

extension TOMLTable {
    /// The value at `path`, nil when there is none.
    public subscript(path: SettingPath) -> TOMLValue? {
        var current: TOMLValue = .table(self)
        for step in path.steps {
            switch step {
            case .key(let name):
                guard let next = current.table?[name] else { return nil }
                current = next
            case .index(let place):
                guard let elements = current.array, elements.indices.contains(place) else { return nil }
                current = elements[place]
            }
        }
        return current
    }
}
