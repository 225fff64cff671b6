import FlapCore
import Foundation

/// The one way into the inbox for every transport: validate, commit, and say what happened.
public struct MessageIntake: Sendable {
    public let inbox: Inbox
    /// The size messages are checked against (the first panel's).
    public let boardSize: BoardSize
    public let now: @Sendable () -> Date

    public init(inbox: Inbox, boardSize: BoardSize, now: @escaping @Sendable () -> Date) {
        self.inbox = inbox
        self.boardSize = boardSize
        self.now = now
    }

    /// Takes a JSON message body from `source`; committed when `.accepted` is returned.
    public func submit(json: [UInt8], source: String, defaultSender: String? = nil) async throws -> IntakeOutcome {
        try await submit(source: source, defaultSender: defaultSender) { parser, time throws(MessageErrors) in
            try parser.parse(json, now: time)
        }
    }

    /// Takes already-decoded fields (the Local API builds them from its own format).
    public func submit(fields: [String: Any], source: String, defaultSender: String? = nil) async throws -> IntakeOutcome {
        try await submit(source: source, defaultSender: defaultSender) { parser, time throws(MessageErrors) in
            try parser.parse(fields, now: time)
        }
    }

    private func submit(
        source: String, defaultSender: String?,
        parse: (MessageParser, Date) throws(MessageErrors) -> (Message, [String])
    ) async throws -> IntakeOutcome {
        let parser = MessageParser(boardSize: boardSize, source: source, defaultSender: defaultSender)
        let time = now()
        let parsed: (Message, [String])
        do {
            parsed = try parse(parser, time)
        } catch {
            return .invalid(error)
        }
        return try await commit(parsed.0, warnings: parsed.1, at: time)
    }

    private func commit(_ message: Message, warnings: [String], at time: Date) async throws -> IntakeOutcome {
        switch try await inbox.accept(message, now: time) {
        case .accepted(let receipt): return .accepted(receipt, warnings: warnings)
        case .duplicate(let receipt): return .duplicate(receipt)
        case .refused(let reason): return .refused(reason)
        case .rateLimited(let wait): return .rateLimited(retryAfter: wait)
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
}
