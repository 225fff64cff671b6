import Synchronization

/// One setting flapd reads, declared where it is read: its key as errors name it, and what
/// kind of value it takes. The page's forms and `GET /v1/settings` are made from these, so a key
/// a table starts to read is on the page with no code of its own.
public struct SettingDeclaration: Sendable, Equatable, Codable {
    /// The key: `sound.volume`, `panel[0].rows`.
    public var key: String
    /// The kind of value.
    public var type: Kind
    /// The values it may take, for a ``Kind/choice``.
    public var choices: [String]?

    /// The kinds of value a setting takes, as the page shows them.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// Text.
        case text
        /// A whole number.
        case wholeNumber
        /// A number, whole or not.
        case number
        /// true or false.
        case boolean
        /// One of ``SettingDeclaration/choices``.
        case choice
        /// A length of time: seconds, or `30s`, `10m`, `2h`, `1d`.
        case interval
        /// A secret: written, never shown.
        case secret
        /// A list of text.
        case list
        /// A list of lists of whole numbers (pins).
        case listOfLists
        /// A table of text (headers).
        case table
    }

    /// A setting `key` of kind `type`, with its `choices` when it has them.
    public init(key: String, type: Kind, choices: [String]? = nil) {
        self.key = key
        self.type = type
        self.choices = choices
    }
}

/// The settings a reading of the configuration declared, in the order they were read; shared
/// by the readers of every table of one reading.
public final class SettingDeclarations: Sendable {
    private let declared = Mutex<[SettingDeclaration]>([])

    /// None yet.
    public init() {}

    /// Records `declaration`, unless its key was declared already (a port is read as a whole
    /// number, a choice as text: the first, most precise declaration stays).
    public func declare(_ declaration: SettingDeclaration) {
        declared.withLock { list in
            if !list.contains(where: { $0.key == declaration.key }) { list.append(declaration) }
        }
    }

    /// What was declared.
    public var all: [SettingDeclaration] { declared.withLock { $0 } }
}
