import ArgumentParser
import FlapEndpoints
import FlapQR
import FoundationEssentials

/// `flapctl pair`: a QR code and a link that sign the owner's phone in (once, within 10 minutes).
struct PairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Sign your phone in as the board's owner: a QR code to scan and a link, good once for 10 minutes.",
        discussion: HelpExamples.discussion("pair"))
    @OptionGroup var connection: ConnectionOptions
    @Option(help: LinkAnswer.hostHelp) var host: String?
    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        let flapd = try connection.connection()
        let reply = try await flapd.request(.pair, json: try JSONEncoder().encode(["host": host].compactMapValues { $0 }))
        guard reply.status == 201 else {
            if reply.status == 400 { throw InputError(reply.error) }
            throw ConnectionError("flapd answered \(reply.status): \(reply.error)")
        }
        if answer.printed(reply) { return }
        let link = try LinkAnswer.from(reply)
        StandardStream.writeOutput(try LinkAnswer.scanText(link, for: "your phone", plainPort: flapd.port))
    }
}

/// `flapctl invite NAME`: a member with a sender of their own, and the QR code and link that
/// sign their phone in (once, within a day).
struct InviteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Invite a person: their own sender on the board, and a QR code and link for their phone, good once for a day.",
        discussion: HelpExamples.discussion("invite"))
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "Their name, as the board's lists show it (\"Mum\").") var name: String
    @Option(help: "The sender id their messages carry (default: the name in lower case).") var sender: String?
    @Option(help: LinkAnswer.hostHelp) var host: String?
    @OptionGroup var answer: JSONAnswerOption

    func run() async throws {
        var body: [String: String] = ["name": name]
        if let sender { body["sender"] = sender }
        if let host { body["host"] = host }
        let flapd = try connection.connection()
        let reply = try await flapd.request(.addMember, json: try JSONEncoder().encode(body))
        guard reply.status == 201 else {
            // A bad name or sender, or one already taken: what the person typed, said as such.
            if reply.status == 400 || reply.status == 409 { throw InputError(reply.error) }
            throw ConnectionError("flapd answered \(reply.status): \(reply.error)")
        }
        if answer.printed(reply) { return }
        struct Invited: Decodable {
            struct Member: Decodable { var name: String; var sender: String }; var member: Member; var invitation: LinkAnswer
        }
        guard let invited = reply.decoded(Invited.self) else { throw ConnectionError("flapd's answer could not be read: \(reply.error)") }
        StandardStream.writeOutput(
            "\(invited.member.name) sends as \(invited.member.sender).\n\n"
                + (try LinkAnswer.scanText(invited.invitation, for: "\(invited.member.name)'s phone", plainPort: flapd.port)))
    }
}

/// A sign-in link as flapd answers it, and how flapctl shows it.
struct LinkAnswer: Decodable {
    var url: String
    var expiresAt: String
    /// The name in the link first, then the others the board's certificate has.
    var worksUnder: [String]?

    static let hostHelp: ArgumentHelp =
        "The name the link uses, one on the board's certificate (default: the first of [api] tls_names, else THIS-MACHINE.local)."

    static func from(_ reply: FlapdConnection.Reply) throws -> LinkAnswer {
        guard let link = reply.decoded(LinkAnswer.self) else { throw ConnectionError("flapd's answer could not be read: \(reply.error)") }
        return link
    }

    /// The QR code in half blocks, the link, how long it works, and where a phone first gets the
    /// board's certificate.
    static func scanText(_ link: LinkAnswer, for phone: String, plainPort: Int?) throws -> String {
        let code = try QRCode(link.url)
        let host = link.worksUnder?.first ?? "this-machine"
        let others = (link.worksUnder ?? []).dropFirst()
        let alsoUnder =
            others.isEmpty
            ? ""
            : "\nIf \(host) does not open on the phone, the board also answers to \(others.joined(separator: ", ")) (--host NAME makes the link with one of them)."
        let ends = (try? Date(link.expiresAt, strategy: .iso8601)) ?? Date()
        let minutes = max(1, Int((ends.timeIntervalSinceNow / 60).rounded()))
        let lasts = minutes >= 120 ? "\(minutes / 60) hours" : "\(minutes) minutes"
        return """
            Scan this with the camera of \(phone):

            \(code.terminalText())

            Or open \(link.url)\(alsoUnder)
            It works once, for the next \(lasts). The phone must be on this network and trust the board's
            certificate first: http://\(host.contains(":") ? "[\(host)]" : host):\(plainPort ?? 8080)/install says how.

            """
    }
}
