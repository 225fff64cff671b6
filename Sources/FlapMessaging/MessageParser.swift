import FlapCore
import FlapJSON
import FlapPrimitives
import FoundationEssentials

/// Reads a message from JSON (docs/messages.md): unknown fields are ignored, wrong types and bad values
/// are errors naming the field, and every problem is reported at once, not only the first.
public struct MessageParser: Sendable {
    /// The size messages are checked against: `codes` and `pattern` must match it exactly.
    public var boardSize: BoardSize
    /// What the board's flap 62 shows: text is laid out for it.
    public var flap62: Flap62
    /// Who a message with no sender is from (`local-api`, `mqtt-command`, …).
    public var defaultSender: String
    /// Where messages come from, stored with each.
    public var source: MessageSource
    /// The panel's flaps, whose lacks are warnings (``Drum/shown(_:)``); nil: every code.
    public var drum: Drum?
    /// Its modules' own flaps, row-major, where some differ from ``drum``.
    public var moduleDrums: [Drum]?
    /// The other panels, whose lacks are warnings naming them.
    public var otherPanels: [PanelFlaps] = []

    /// The date and time a VBML document's templates may name, filled into its props.
    public var localProps: [String: JSONValue] = [:]
    /// The content sources' values, beside ``localProps``: read only for a message that has a
    /// template (VBML, or a text with placeholders), as a calendar's take a moment to work out.
    public var sourceProps: (@Sendable () -> [String: JSONValue])?

    /// Every value a template may name.
    private var allProps: [String: JSONValue] {
        guard let sourceProps else { return localProps }
        return localProps.merging(sourceProps()) { own, _ in own }
    }
    /// For a quick message or a schedule: the values its text's `{{name}}` placeholders take
    /// (``TextPlaceholders``), over ``localProps``; nil leaves text as it is.
    public var textPlaceholders: [String: JSONValue]?
    /// Checking a quick message before it is sent: a placeholder nothing fills yet is not an error.
    public var lenientPlaceholders = false

    /// A parser for boards of `boardSize`; messages it reads come from `source` and, with no sender, from `defaultSender` (else the source).
    public init(boardSize: BoardSize, flap62: Flap62? = nil, source: MessageSource, defaultSender: String? = nil) {
        self.boardSize = boardSize
        self.flap62 = flap62 ?? Flap62(defaultFor: boardSize)
        self.source = source
        self.defaultSender = defaultSender ?? source.rawValue
    }

    /// The message in `json`, with defaults filled in at `now`, and the layout's warnings.
    public func parse(_ json: [UInt8], now: Date) throws(MessageErrors) -> (Message, [String]) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw MessageErrors(field: "", "the body is not valid JSON")
        }
        guard let fields = value.object else { throw MessageErrors(field: "", "a message must be a JSON object") }
        return try parse(fields, now: now)
    }

    /// The message in an already-decoded JSON object.
    public func parse(_ fields: [String: JSONValue], now: Date) throws(MessageErrors) -> (Message, [String]) {
        var reader = FieldReader(fields: fields)
        let id = reader.string("id")
        if let id, id.isEmpty || id.count > 128 { reader.fail("id", "must be 1 to 128 characters") }
        if let id, let problem = Self.controlCharacterProblem(id) { reader.fail("id", problem) }

        var sender = Sender(id: defaultSender)
        if let senderFields = reader.object("sender") {
            var inner = FieldReader(fields: senderFields, prefix: "sender.")
            if let senderID = inner.string("id", required: true) {
                if senderID.isEmpty || senderID.count > 64 || senderID.contains("/") || senderID.contains("+") || senderID.contains("#") {
                    inner.fail("id", "must be 1 to 64 characters without / + #")
                } else if let problem = Self.controlCharacterProblem(senderID) {
                    inner.fail("id", problem)
                } else {
                    sender.id = senderID
                }
            }
            sender.name = inner.string("name")
            if let name = sender.name, let problem = Self.controlCharacterProblem(name) { inner.fail("name", problem) }
            reader.problems += inner.problems
        }

        let align = reader.enumeration("align", HorizontalAlignment.self) ?? .center
        let valign = reader.enumeration("valign", VerticalAlignment.self) ?? .middle
        let content = readContent(&reader)
        let createdText = reader.string("createdAt")
        var createdAt = createdText.flatMap { reader.date($0, field: "createdAt") } ?? now
        var clockWarnings: [String] = []
        // A sender's clock may be wrong (a phone, a microcontroller without NTP): a createdAt
        // far in the future would keep its message the newest for ever and freeze the board. One
        // more than 5 minutes ahead of flapd's clock is taken as the time the message arrived.
        if createdAt > now.addingTimeInterval(Self.createdAtTolerance) {
            clockWarnings.append(
                "createdAt \(Self.stamp(createdAt)) is more than 5 minutes ahead of flapd's clock (\(Self.stamp(now))): "
                    + "taken as the time it arrived; check the sender's clock")
            createdAt = now
        }
        let notBefore = reader.string("notBefore").flatMap { reader.date($0, field: "notBefore") }
        let explicitExpiry = reader.string("expiresAt").flatMap { reader.date($0, field: "expiresAt") }
        let duration = readDuration(&reader, expiresAt: explicitExpiry)
        let lifetime = duration.map(TimeInterval.init) ?? Message.defaultLifetime
        let expiresAt =
            explicitExpiry
            ?? min(max(createdAt, notBefore ?? createdAt).addingTimeInterval(lifetime), Self.latestDate)
        if let notBefore, let explicitExpiry, explicitExpiry <= notBefore {
            reader.fail(
                "expiresAt",
                "\(Self.stamp(explicitExpiry)) is not after notBefore \(Self.stamp(notBefore)): the message would expire before it is shown")
        } else if expiresAt <= createdAt {
            reader.fail("expiresAt", "must be after createdAt")
        }
        let transition = readTransition(&reader)
        let bypass = reader.bool("bypassQuietHours")
        let unsupported = reader.enumeration("unsupported", UnsupportedCharacters.self)

        var warnings = clockWarnings
        if let content {
            do {
                warnings += try MessageRenderer(size: boardSize, flap62: flap62, drum: drum, moduleDrums: moduleDrums).validate(
                    content, align: align, valign: valign, unsupported: unsupported ?? .replace)
                // Another panel's lacks, as that panel lays the message out (one that cannot lay
                // it out at all shows nothing of it, as before).
                for panel in otherPanels {
                    let lacks = MessageRenderer(size: panel.size, flap62: panel.flap62, drum: panel.drum, moduleDrums: panel.moduleDrums)
                        .lacks(content, align: align, valign: valign, unsupported: unsupported ?? .replace)
                    warnings += lacks.map { "panel \(panel.id): \($0)" }
                }
            } catch {
                reader.problems += error.problems
            }
        }
        guard reader.problems.isEmpty, let content else { throw MessageErrors(reader.problems) }
        var message = Message(
            id: id ?? MessageID.random(), sender: sender, content: content, align: align, valign: valign,
            createdAt: createdAt, expiresAt: expiresAt, notBefore: notBefore, transition: transition, source: source)
        message.unsupported = unsupported
        message.duration = duration
        if message.clearsSlot, duration != nil {
            throw MessageErrors(field: "duration", "an empty text clears its sender's slot; it cannot be temporary")
        }
        if id == nil {
            message.repeatKey = MessageID.repeatKey(source: source, sender: sender.id, content: content, createdAt: createdText, duration: duration)
        }
        var withBypass = message
        if bypass == true { withBypass.bypassQuietHours = true }
        return (withBypass, warnings)
    }

    static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }

    /// What is wrong with a name holding a control character (a NUL cuts it short in C, a line
    /// break forges a log line, an escape sequence rewrites a terminal), or nil.
    static func controlCharacterProblem(_ text: String) -> String? { InvisibleCharacters.problem(in: text) }

    /// How far ahead of flapd's clock a createdAt may be (clocks drift; NTP corrects them in steps).
    public static let createdAtTolerance: TimeInterval = 5 * 60

    /// The latest time a message may name or be given: 9999-12-31T23:59:59Z, the last RFC 3339 can write.
    public static let latestDate = Date(timeIntervalSince1970: 253_402_300_799)

    private func readContent(_ reader: inout FieldReader) -> Content? {
        let present = ["text", "codes", "pattern", "vbml"].filter(reader.has)
        guard present.count == 1 else {
            reader.fail(
                present.isEmpty ? "text" : present.joined(separator: ", "),
                present.isEmpty ? "a message needs one of text, codes, pattern or vbml" : "give only one of text, codes, pattern or vbml")
            return nil
        }
        switch present[0] {
        case "text":
            guard let text = reader.string("text") else { return nil }
            guard let given = textPlaceholders, TextPlaceholders.named(in: text) else { return .text(text) }
            do {
                return .text(try TextPlaceholders.fill(text, values: allProps.merging(given) { $1 }, lenient: lenientPlaceholders))
            } catch {
                reader.problems += error.problems
                return nil
            }
        case "vbml":
            return reader.object("vbml").map { Content.vbml(.object(LocalProps.filling($0, with: allProps))) }
        case "codes":
            return reader.grid("codes", typeName: "a whole number", cell: \.int).map(Content.codes)
        default:
            return reader.grid("pattern", typeName: "a colour name", cell: \.string).map(Content.pattern)
        }
    }

    /// A temporary message's seconds (``Message/durations``); it sets when the message ends, so
    /// it and `expiresAt` are not both given.
    private func readDuration(_ reader: inout FieldReader, expiresAt: Date?) -> Int? {
        guard let seconds = reader.int("duration") else { return nil }
        if !Message.durations.contains(seconds) {
            reader.fail("duration", "must be 10 to 43200 seconds (12 hours), not \(seconds)")
            return nil
        }
        if expiresAt != nil { reader.fail("duration", "give duration or expiresAt, not both: a temporary message ends after its duration") }
        return seconds
    }

    private func readTransition(_ reader: inout FieldReader) -> TransitionRequest? {
        guard let fields = reader.object("transition") else { return nil }
        var inner = FieldReader(fields: fields, prefix: "transition.")
        let strategy = inner.enumeration("strategy", TransitionStrategy.self) ?? .cascade
        let stepSize = inner.int("stepSize")
        let interval = inner.int("stepIntervalMs")
        if let stepSize, stepSize < 1 { inner.fail("stepSize", "must be at least 1") }
        if let interval, !(0...10_000).contains(interval) { inner.fail("stepIntervalMs", "must be 0 to 10000") }
        reader.problems += inner.problems
        return TransitionRequest(strategy: strategy, stepSize: stepSize, stepIntervalMs: interval)
    }
}
