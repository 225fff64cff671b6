import ArgumentParser
import FlapCore
import FlapEndpoints
import FlapMCP
import FoundationEssentials

/// `flapctl send`: a message to a running flapd.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a message to flapd.",
        discussion: HelpExamples.discussion(
            "send",
            "Prints the message id; --wait waits until the panel has shown it (or it ended otherwise). Exit status 2 when flapd refuses the message, 1 when flapd cannot be reached."
        ))

    @OptionGroup var connection: ConnectionOptions

    @Option(help: "Your sender id: flapd keeps one message per sender (default: flapd's choice for the API).")
    var sender: String?

    @Option(help: "Your name, shown in slots.")
    var name: String?

    @Option(help: "A message id (default: flapd gives one; sending the same text again shows it again).")
    var id: String?

    @Option(help: "left, center, right or justified (default center).")
    var align: HorizontalAlignment?

    @Option(help: "top, middle or bottom (default middle).")
    var valign: String?

    @Option(help: "Seconds until the message expires (default 48 hours after it is first shown).")
    var expiresIn: Int?

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "Show it for this long, then give the board back to what it showed: seconds, or minutes and hours as 5m, 2h (10 s to 12 h).",
            valueName: "duration"))
    var showFor: TemporaryDuration?

    @Option(
        help:
            "Send later: a time of day (07:00, the next time the clock here shows it) or an instant (2026-12-24T18:00:00+01:00). flapd keeps the message and shows it then."
    )
    var at: String?

    @Option(help: "Transition: \(TransitionStrategy.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: TransitionStrategy?

    @Flag(help: "Wait until the message has been shown, superseded, expired or rejected.")
    var wait = false

    @Option(help: "Send over MQTT through this broker (mqtt://HOST:PORT) instead of flapd's API.")
    var mqtt: String?

    @Option(help: "With --mqtt: the displays (device ids) to send to, comma-separated, at most 10.")
    var to: String?

    @Option(help: "With --mqtt: send to every display of this group.")
    var group: String?

    @Flag(help: "With --mqtt and --sender: publish as the sender's retained slot, kept by the broker for displays that are off.")
    var slot = false

    @Option(help: "With --mqtt: seconds to wait for the displays' receipts.")
    var timeout: Double = 10

    @Argument(help: "The text to show.")
    var text: String

    func run() async throws {
        var message = OutgoingMessage(
            id: id, text: text, sender: sender.map { .init(id: $0, name: name) }, align: align?.rawValue,
            valign: valign, transition: strategy.map { .init(strategy: $0.rawValue) })
        let now = Date()
        let notBefore = try at.map { try SendTime.parse($0, now: now) }
        message.notBefore = notBefore?.formatted(.iso8601)
        if showFor != nil, expiresIn != nil {
            throw ValidationError("give --for or --expires-in, not both: a message shown for a while ends after it")
        }
        message.duration = showFor?.seconds
        if let expiresIn {
            message.createdAt = now.formatted(.iso8601)
            message.expiresAt = (notBefore ?? now).addingTimeInterval(TimeInterval(expiresIn)).formatted(.iso8601)
        }
        if let mqtt {
            let devices = to.map { $0.split(separator: ",").map { $0.trimmed } } ?? []
            return try await MQTTSend(
                url: mqtt, devices: devices, group: group, message: message, slot: slot,
                expiresIn: expiresIn, timeout: timeout
            ).run()
        }
        let flapd = try connection.connection()
        // One key for this invocation: if flapd took the message but its answer was lost, the
        // retry gets that answer back instead of a second message.
        let reply = try await flapd.request(
            .sendMessage, json: try JSONEncoder().encode(message),
            headers: [("Idempotency-Key", Self.idempotencyKey())], retries: 2)
        let answer = reply.decoded(MessageAnswer.self)
        for warning in answer?.warnings ?? [] { StandardStream.writeError("warning: \(warning)\n") }
        switch reply.status {
        case 200, 202:
            let id = answer?.id ?? "?"
            let scheduled = notBefore.map { " (scheduled for \(ZoneRules.current().text($0)))" } ?? ""
            print(reply.status == 200 ? "\(id) (the same as the message flapd already has, \(answer?.status ?? "?"))" : id + scheduled)
            if wait { try await waitForFinal(id, flapd) }
        case 429:
            throw InputError("flapd refused the message: \(reply.error)")
        default:
            throw InputError("flapd refused the message (\(reply.status)): \(reply.error)")
        }
    }

    /// A new idempotency key: 128 random bits in hexadecimal.
    static func idempotencyKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: "-")
    }

    private func waitForFinal(_ id: String, _ flapd: FlapdConnection) async throws {
        while true {
            let receipt = try await flapd.request(.receipt, id).decoded(MessageAnswer.self)
            let status = receipt?.status ?? "?"
            if status != "accepted" && status != "scheduled" {
                print(status + (receipt?.reason.map { ": \($0)" } ?? ""))
                return
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}
