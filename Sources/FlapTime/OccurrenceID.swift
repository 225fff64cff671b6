import Crypto
import FoundationEssentials

extension ScheduleSettings {
    /// The id of the schedule's message at `occurrence`: `s-` and 32 hexadecimal digits of
    /// HMAC-SHA256 under `key` (the inbox's own, ``Inbox/occurrenceKey()``) over the schedule's
    /// name and the instant. The same at every restart, so an occurrence fired twice is a
    /// duplicate; guessed by nobody, so no one can send a message with it first and take the
    /// occurrence's place (the name and the minute are things members can read).
    public func occurrenceID(at occurrence: Date, key: [UInt8]) -> String { Self.occurrenceID(name: name, at: occurrence, key: key) }

    /// ``occurrenceID(at:key:)`` of the schedule named `name`.
    public static func occurrenceID(name: String, at occurrence: Date, key: [UInt8]) -> String {
        var input = Array(name.utf8)
        input.append(0)
        input += Array(String(Int(occurrence.timeIntervalSince1970)).utf8)
        let code = HMAC<SHA256>.authenticationCode(for: input, using: SymmetricKey(data: key))
        return "s-" + code.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
