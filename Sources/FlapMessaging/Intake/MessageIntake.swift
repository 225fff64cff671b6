import FlapCore
import FlapJSON
import FoundationEssentials

/// The one way into the inbox for every transport: validate, commit, and say what happened.
public struct MessageIntake: Sendable {
    /// Where accepted messages are kept.
    public let inbox: Inbox
    /// The size messages are checked against (the first panel's).
    public let boardSize: BoardSize
    /// What the first panel's flap 62 shows.
    public let flap62: Flap62
    /// The first panel's flaps: a character its modules lack is a warning naming it (nil: every
    /// code of the board, as a Vestaboard's).
    public var drum: Drum?
    /// The first panel's modules' own flaps, row-major, where some differ from ``drum``.
    public var moduleDrums: [Drum]?
    /// The other panels: a character their modules lack is a warning naming the panel too.
    public var otherPanels: [PanelFlaps] = []
    /// The wall clock, injected so tests can set it.
    public let now: @Sendable () -> Date
    /// The board's time zone for the date and time VBML templates may name (none when nil).
    public var localProps: LocalProps?
    /// The content sources' values by source name (`weather` → its values), read as a message
    /// is laid out.
    public var sourceProps: (@Sendable (Date) -> [String: JSONValue])?
    /// Told each verdict once, whichever transport brought the message (flapd's metrics count
    /// them): the intake's own, and the refusals a transport reports with ``refuse(_:source:)``.
    public var verdicts: (@Sendable (IntakeVerdict) -> Void)?

    /// An intake into `inbox`, checking against `boardSize`, at the time `now` gives.
    public init(inbox: Inbox, boardSize: BoardSize, flap62: Flap62? = nil, now: @escaping @Sendable () -> Date) {
        self.inbox = inbox
        self.boardSize = boardSize
        self.flap62 = flap62 ?? Flap62(defaultFor: boardSize)
        self.now = now
    }

    /// What templates may name at `time`: the board's date and time, and the sources' values.
    public func props(at time: Date) -> [String: JSONValue] {
        (localProps?.values(at: time) ?? [:]).merging(sourceProps?(time) ?? [:]) { own, _ in own }
    }

    /// A message a transport refused before it reached the intake (too large, not JSON, a
    /// member sending as someone else), counted with the intake's own verdicts.
    public func refuse(_ reason: RejectionReason, source: MessageSource) {
        verdicts?(.rejected(source: source, reason: reason))
    }

    /// Takes a JSON message body from `source`; committed when `.accepted` is returned.
    public func submit(
        json: [UInt8], source: MessageSource, defaultSender: String? = nil, claim: IdempotencyClaim? = nil
    ) async throws -> IntakeOutcome {
        try await queue(json: json, source: source, defaultSender: defaultSender, claim: claim).outcome
    }

    /// Takes already-decoded fields (the Local API builds them from its own format).
    /// `placeholders`: a quick message's or a schedule's, whose text's `{{name}}` take the board's
    /// local date and time and these values (nil: text is as given).
    public func submit(
        fields: [String: JSONValue], source: MessageSource, defaultSender: String? = nil,
        repetition: Repetition = .newUnlessCurrent, placeholders: [String: JSONValue]? = nil
    ) async throws -> IntakeOutcome {
        try await queue(fields: fields, source: source, defaultSender: defaultSender, repetition: repetition, placeholders: placeholders).outcome
    }

    /// Validates a JSON body and queues it for the inbox behind everything queued before;
    /// returns at once. With `announce`, the inbox also announces the outcome on its events
    /// (receipts over MQTT). `repetition` says how a message without an id is told from a copy.
    public func queue(
        json: [UInt8], source: MessageSource, defaultSender: String? = nil, announce: Bool = false,
        repetition: Repetition = .newUnlessCurrent, claim: IdempotencyClaim? = nil
    ) async -> IntakeTicket {
        await queue(source: source, defaultSender: defaultSender, announce: announce, repetition: repetition, claim: claim) {
            parser, time throws(MessageErrors) in
            try parser.parse(json, now: time)
        }
    }

    /// ``queue(json:source:defaultSender:announce:)`` for already-decoded fields.
    public func queue(
        fields: [String: JSONValue], source: MessageSource, defaultSender: String? = nil, announce: Bool = false,
        repetition: Repetition = .newUnlessCurrent, placeholders: [String: JSONValue]? = nil
    ) async -> IntakeTicket {
        await queue(source: source, defaultSender: defaultSender, announce: announce, repetition: repetition, claim: nil) {
            parser, time throws(MessageErrors) in
            var parser = parser
            parser.textPlaceholders = placeholders
            return try parser.parse(fields, now: time)
        }
    }

    private func queue(
        source: MessageSource, defaultSender: String?, announce: Bool, repetition: Repetition, claim: IdempotencyClaim?,
        parse: (MessageParser, Date) throws(MessageErrors) -> (Message, [String])
    ) async -> IntakeTicket {
        var parser = MessageParser(boardSize: boardSize, flap62: flap62, source: source, defaultSender: defaultSender)
        parser.drum = drum
        parser.moduleDrums = moduleDrums
        parser.otherPanels = otherPanels
        let time = now()
        parser.localProps = localProps?.values(at: time) ?? [:]
        if let sourceProps { parser.sourceProps = { sourceProps(time) } }
        let parsed: (Message, [String])
        do {
            parsed = try parse(parser, time)
        } catch {
            refuse(.invalid, source: source)
            return IntakeTicket(invalid: error)
        }
        let note = announce ? SubmissionNote(source: source, warnings: parsed.1) : nil
        var claim = claim
        claim?.warnings = parsed.1
        let pending = await inbox.queueAccept(parsed.0, now: time, note: note, repetition: repetition, claim: claim) {
            [verdicts] acceptance in
            guard let verdicts, let verdict = Self.verdict(on: acceptance, source: source) else { return }
            verdicts(verdict)
        }
        return IntakeTicket(pending: pending, warnings: parsed.1)
    }

    /// What the metrics count of the inbox's answer: nothing for a copy of an earlier message.
    static func verdict(on acceptance: Acceptance, source: MessageSource) -> IntakeVerdict? {
        switch acceptance {
        case .accepted(let receipt): .accepted(id: receipt.id, source: source)
        case .refused: .rejected(source: source, reason: .refused)
        case .rateLimited: .rejected(source: source, reason: .rateLimited)
        case .keyReused: .rejected(source: source, reason: .idempotencyKeyReused)
        case .duplicate, .replayed: nil
        }
    }
}

/// A submission validated and queued; its outcome arrives with its commit.
public struct IntakeTicket: Sendable {
    private enum State: Sendable {
        case invalid(MessageErrors)
        case pending(Inbox.PendingAcceptance)
    }

    private let state: State
    private let warnings: [String]

    /// A submission refused before the inbox: `errors` say why.
    public init(invalid: MessageErrors) {
        state = .invalid(invalid)
        warnings = []
    }

    init(pending: Inbox.PendingAcceptance, warnings: [String]) {
        state = .pending(pending)
        self.warnings = warnings
    }

    /// What became of it: at once when it was not valid, else after its commit.
    public var outcome: IntakeOutcome {
        get async throws {
            switch state {
            case .invalid(let errors): return .invalid(errors)
            case .pending(let pending): return try await Self.outcome(of: pending, warnings: warnings)
            }
        }
    }

    private static func outcome(of pending: Inbox.PendingAcceptance, warnings: [String]) async throws -> IntakeOutcome {
        switch try await pending.value {
        case .accepted(let receipt): .accepted(receipt, warnings: warnings)
        case .duplicate(let receipt): .duplicate(receipt)
        case .refused(let reason): .refused(reason)
        case .rateLimited(let wait): .rateLimited(retryAfter: wait)
        case .replayed(let answer): .replayed(answer)
        case .keyReused: .keyReused
        }
    }
}

/// What became of a submitted message.
public enum IntakeOutcome: Sendable {
    /// Committed; layout warnings (substitutions, cut rows) for the sender.
    case accepted(Receipt, warnings: [String])
    /// Seen before; nothing changed.
    case duplicate(Receipt)
    /// Not a valid message: every problem, each naming its field.
    case invalid(MessageErrors)
    /// The sender may not send.
    case refused(String)
    /// Over the sender's rate; seconds until the next message is allowed.
    case rateLimited(retryAfter: TimeInterval)
    /// The request's idempotency key was used for the same request: its first answer.
    case replayed(IdempotentAnswer)
    /// The request's idempotency key was used for a different request.
    case keyReused
}
