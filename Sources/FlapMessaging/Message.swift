import FlapCore
import FlapJSON
import FoundationEssentials

/// A message for the board (docs/messages.md), as accepted: every default filled in.
public struct Message: Sendable, Equatable, Codable {
    /// Unique; given by the sender, or random (``MessageID/random()``).
    public var id: String
    /// Who sent it: its slot is theirs.
    public var sender: Sender
    /// What it shows.
    public var content: Content
    /// Horizontal and vertical alignment of `text` content.
    public var align: HorizontalAlignment
    /// Vertical alignment of `text` content.
    public var valign: VerticalAlignment
    /// When the sender made it; a message with no `createdAt` gets the time its id was first seen.
    public var createdAt: Date
    /// When it stops being shown; default 48 h after it is first shown (`notBefore`, else `createdAt`).
    public var expiresAt: Date
    /// Send later: committed at once, it takes its sender's slot at this instant.
    public var notBefore: Date?
    /// Moves a panel in its quiet hours (nil: no).
    public var bypassQuietHours: Bool?
    /// The transition it asks for (nil: the panel's own).
    public var transition: TransitionRequest?
    /// Where it came from: `local-api`, `native-api`, `mqtt`, …
    public var source: MessageSource
    /// For a message that came without an id, what a copy of it would repeat
    /// (``MessageID/repeatKey(source:sender:content:createdAt:)``); nil when the sender gave the id.
    public var repeatKey: String?
    /// What a character the board cannot show does: nil is replace (a blank, or `?` inside a
    /// word, with a warning); `refuse` refuses the message, as earlier versions did.
    public var unsupported: UnsupportedCharacters?
    /// A temporary message (an alert): shown for this many seconds from when it shows from, over
    /// whatever the board would show otherwise, which comes back when it ends (nil: persistent).
    public var duration: Int?

    /// A message with every field given; parsers fill in the defaults before this.
    public init(
        id: String, sender: Sender, content: Content, align: HorizontalAlignment = .center,
        valign: VerticalAlignment = .middle, createdAt: Date, expiresAt: Date, notBefore: Date? = nil,
        transition: TransitionRequest? = nil, source: MessageSource
    ) {
        self.id = id
        self.sender = sender
        self.content = content
        self.align = align
        self.valign = valign
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.transition = transition
        self.source = source
    }

    /// How long a message lives when it does not say.
    public static let defaultLifetime: TimeInterval = 48 * 3600

    /// From when it may be shown: its `notBefore`, else when it was made. Between two messages
    /// of one sender, the later of these wins the slot.
    public var showsFrom: Date { max(createdAt, notBefore ?? createdAt) }

    /// How long a temporary message may last, in seconds: 10 s to 12 h, as ha-vestaboard allows.
    public static let durations = 10...(12 * 3600)

    /// The one slot every temporary message shares, so a newer one replaces the older; `#` is
    /// never in a sender id, so it is no sender's slot.
    public static let temporarySlot = "#temporary"

    /// The slot a trigger's temporary message takes: its own, so a trigger never replaces a
    /// person's temporary message (a person's message wins over a trigger's).
    public static let triggerSlot = "#trigger"

    /// The slot this message takes: its sender's, or the temporary one (a trigger's own).
    public var slotKey: String { duration == nil ? sender.id : priority == .trigger ? Self.triggerSlot : Self.temporarySlot }

    /// Who a message is from, for which covers which: a person's message (from any API, MQTT,
    /// Home Assistant, an assistant, or a schedule someone set for a time) wins over a trigger's
    /// and a background schedule's, a trigger's over a background schedule's.
    public enum Priority: Int, Sendable, Comparable {
        case schedule = 1, trigger = 2, person = 3

        /// A person's is the highest.
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Whose it is, by its source: a background schedule's, a trigger's, or a person's (a
    /// schedule's is: at its instant it takes the board as a newer message of anyone's would).
    public var priority: Priority {
        switch source {
        case .backgroundSchedule: .schedule
        case .trigger: .trigger
        default: .person
        }
    }

    /// An empty text (or only spaces): its sender clearing their slot, as Home Assistant's text
    /// entity does when a person empties it.
    public var clearsSlot: Bool {
        if case .text(let text) = content { return text.allSatisfy(\.isWhitespace) }
        return false
    }
}

/// How the inbox tells a copy of a message that came without an id from a new one.
public enum Repetition: Sendable, Equatable {
    /// New, unless it repeats its sender's current message from the same source (a client's
    /// retry, a redelivery before anything newer arrived).
    case newUnlessCurrent
    /// The transport says it was delivered before (MQTT's DUP flag, a retained copy): a copy of
    /// any earlier message of its sender with the same content and source.
    case copyOfAnyEarlier
    /// Always new: the Local API, where a Vestaboard shows every write.
    case alwaysNew
}

/// Who sent a message: one slot per sender id.
public struct Sender: Sendable, Equatable, Codable {
    /// The sender's id: letters, digits, `.`, `_` and `-` (the slot's key).
    public var id: String
    /// How people call them, for captions ("Mum"); nil: the id.
    public var name: String?

    /// A sender by `id`, named `name`.
    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// What a message shows.
public enum Content: Sendable, Equatable, Codable {
    /// Text, laid out on the panel.
    case text(String)
    /// Rows of character codes, exactly the panel's size.
    case codes([[Int]])
    /// Rows of colour names (red … filled, blank), exactly the panel's size.
    case pattern([[String]])
    /// A VBML document (Vestaboard's markup), drawn at the panel's size as Vestaboard draws it.
    case vbml(JSONValue)
}

/// The transition a message asks for (Vestaboard's strategy names).
public struct TransitionRequest: Sendable, Equatable, Codable {
    /// The strategy by its Vestaboard name.
    public var strategy: TransitionStrategy
    /// Modules that move together per step, for the strategies that step.
    public var stepSize: Int?
    /// Milliseconds between steps.
    public var stepIntervalMs: Int?

    /// A request for `strategy`, its steps as given.
    public init(strategy: TransitionStrategy, stepSize: Int? = nil, stepIntervalMs: Int? = nil) {
        self.strategy = strategy
        self.stepSize = stepSize
        self.stepIntervalMs = stepIntervalMs
    }
}
