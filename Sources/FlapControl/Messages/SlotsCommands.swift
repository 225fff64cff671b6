import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl slots`: each sender's current message, by name, and the temporary message over them;
/// `--clear SENDER` empties one, `--end-temporary` ends the temporary message now.
struct SlotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slots", abstract: "List each sender's current message, or clear one.",
        discussion: HelpExamples.discussion("slots"))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Empty this sender's slot.")
    var clear: String?

    @Flag(help: "End the temporary message now: the board goes back to what it covered.")
    var endTemporary = false

    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        let flapd = try connection.connection()
        if endTemporary {
            let reply = try await flapd.request(.endTemporary)
            guard reply.status == 204 else { throw InputError(reply.error) }
            return print("ended the temporary message")
        }
        if let clear {
            let reply = try await flapd.request(.clearSlot, clear)
            guard reply.status == 204 else { throw InputError(reply.error) }
            return print("cleared \(clear)")
        }
        let reply = try await flapd.request(.slots)
        if answer.printed(reply) { return }
        let slots = reply.decoded(SlotsAnswer.self)?.slots ?? []
        if slots.isEmpty { print("no messages") }
        let zone = ZoneRules.current()
        for slot in slots {
            let who = slot.senderName.map { "\($0) (\(slot.sender ?? "?"))" } ?? slot.sender ?? "?"
            let until = slot.expiresAt.flatMap(Self.date).map { "\(slot.duration == nil ? "" : "for now, then back; ")until \(zone.text($0))" } ?? ""
            print("\(who)\t\((slot.text ?? []).map { $0.trimmed }.filter { !$0.isEmpty }.joined(separator: " / "))\t\(until)")
        }
    }

    static func date(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}

/// `flapctl receipts`: what became of the latest messages, newest first, each named by its text.
struct ReceiptsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts", abstract: "List what became of the latest messages, newest first.",
        discussion: HelpExamples.discussion(
            "receipts",
            "Each line: when it arrived, the sender, its status (accepted, displayed, superseded, expired, rejected, cancelled, cleared, scheduled), what it said, and the reason where there is one."
        ))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Only this sender's messages.")
    var sender: String?

    @Option(help: "How many (1 to 500; default 20).")
    var limit: Int = 20

    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        guard (1...500).contains(limit) else { throw InputError("--limit must be 1 to 500, not \(limit)") }
        let query = [("limit", "\(limit)")] + (sender.map { [("sender", $0)] } ?? [])
        let reply = try await connection.connection().expect(.receipts, query: query)
        if answer.printed(reply) { return }
        let receipts = reply.decoded(ReceiptsAnswer.self)?.receipts ?? []
        if receipts.isEmpty { print(sender.map { "no messages from \($0)" } ?? "no messages") }
        let zone = ZoneRules.current()
        for receipt in receipts {
            let at = receipt.receivedAt.flatMap(SlotsCommand.date).map { zone.text($0) } ?? "?"
            let reason = receipt.reason.map { "\t(\($0))" } ?? ""
            print("\(at)\t\(receipt.sender ?? "?")\t\(receipt.status ?? "?")\t\(receipt.text ?? receipt.id ?? "?")\(reason)")
        }
    }
}
