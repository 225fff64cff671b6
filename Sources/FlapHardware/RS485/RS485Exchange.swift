/// One command's exchange with a module: the frame that went on the bus and what the module
/// answered, for the commands it answers.
public struct RS485Exchange: Sendable, Equatable {
    /// The frame sent, without its newlines (`m02i50` for module 2 given ID 50).
    public var sent: String
    /// The module's answer to `c` or `d`; nil for the commands it does not answer.
    public var answer: RS485Answer?

    /// An exchange that sent `sent` and heard `answer`.
    public init(sent: String, answer: RS485Answer? = nil) {
        self.sent = sent
        self.answer = answer
    }
}

/// Why a command was not sent: a number its firmware cannot mean, refused before anything costs
/// time on the bus or in flapd.
public enum RS485CommandRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// `what` is `value`, outside `allowed` for that module.
    case outOfRange(String, value: Int, allowed: ClosedRange<Int>)
    /// Another module of the panel has this ID.
    case idTaken(Int)
    /// The module's firmware has no such command (a self-test asked of a v7 module).
    case unknownToFirmware(String, id: Int, firmware: RS485Firmware)

    /// Why, in words.
    public var description: String {
        switch self {
        case .outOfRange(let what, let value, let allowed):
            "\(what) is \(allowed.lowerBound) to \(allowed.upperBound) for this module, not \(value)"
        case .idTaken(let id): "another module of the panel has ID \(id)"
        case .unknownToFirmware(let command, let id, let firmware):
            "module \(id) runs \(firmware.said), which has no \(command) (Universal Firmware's modules have)"
        }
    }
}
