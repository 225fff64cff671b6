/// What an SBB/annax module answers: raw bytes, as many as the question asks for, with no frame
/// around them; the host knows what it asked.
public enum SBBAnswer: Sendable, Equatable {
    /// The blade it shows (`D0`).
    case position(Int)
    /// Its serial number (`DF`), as the four bytes read least significant first.
    case serial(UInt32)
    /// Its firmware's version (`D4`), the two bytes as one number, first byte high.
    case version(Int)
    /// Its blade set's type (`DD`).
    case type(Int)

    /// Reads the answer to `command` from `bytes`, which must be exactly its answer's length:
    /// fewer is an answer cut short, more is something else on the bus too. Never reads more
    /// than four bytes.
    public static func read(_ bytes: some Collection<UInt8>, answering command: SBBCommand) throws(SBBAnswerError) -> SBBAnswer {
        let expected = command.answerLength
        guard expected > 0 else { throw .notAnswered(command.code) }
        guard bytes.count == expected else { throw .length(command.code, expected: expected, got: bytes.count) }
        let b = Array(bytes)
        switch command {
        case .position: return .position(Int(b[0]))
        case .type: return .type(Int(b[0]))
        case .version: return .version(Int(b[0]) << 8 | Int(b[1]))
        case .serial: return .serial(UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24)
        case .show, .zero, .step, .setAddress: throw .notAnswered(command.code)
        }
    }
}

/// An answer that could not be read.
public enum SBBAnswerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command is not one a module answers.
    case notAnswered(UInt8)
    /// The module said `got` bytes where the command's answer is `expected`.
    case length(UInt8, expected: Int, got: Int)

    /// Why, in words.
    public var description: String {
        switch self {
        case .notAnswered(let code): "a module does not answer \(SBBCommand.hex(code))"
        case .length(let code, let expected, let got):
            got < expected
                ? "the answer to \(SBBCommand.hex(code)) was cut short: \(got) of its \(expected) byte\(expected == 1 ? "" : "s")"
                : "the answer to \(SBBCommand.hex(code)) is \(expected) byte\(expected == 1 ? "" : "s"), and \(got) came: another module or noise on the bus"
        }
    }
}
