import ArgumentParser
import FlapEndpoints
import FoundationEssentials

/// `flapctl room`: the Wematch room of a running flapd kiosk.
struct RoomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room", abstract: "Show, join, open or leave the kiosk's Wematch room, or watch its plot live.",
        discussion: HelpExamples.discussion(
            "room",
            """
            Without a subcommand it shows the room: members (names and colours, never another \
            member's heart rate), who is synced, clusters and chains.
            """),
        subcommands: [Show.self, Create.self, Join.self, Leave.self, Watch.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the room the kiosk is in.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().request(.room)
            try RoomCommand.print(reply, answer: answer)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open a room for two; the other person joins with its code.")
        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().request(.joinRoom, json: Data(#"{"create":"pair"}"#.utf8))
            try RoomCommand.print(reply, answer: answer)
        }
    }

    struct Join: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Join the room with this code (six letters and digits, as another kiosk shows it).")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The room's code.") var code: String
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let body = try JSONEncoder().encode(["code": code])
            let reply = try await connection.connection().request(.joinRoom, json: body)
            try RoomCommand.print(reply, answer: answer)
        }
    }

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Leave the room (back to the kiosk's standing room, if it has one).")
        @OptionGroup var connection: ConnectionOptions

        func run() async throws {
            let reply = try await connection.connection().expect(.leaveRoom)
            let answer = reply.decoded(RoomLeftAnswer.self)
            let left = answer?.left ?? "?"
            let now = answer?.room
            StandardStream.writeOutput("left \(left)" + (now.map { "; back in \($0)" } ?? "; in no room now") + "\n")
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Draw the room's plot live in the terminal.")
        @OptionGroup var connection: ConnectionOptions
        @Option(help: "The picture's width in pixels (a terminal column each).") var width = 96
        @Option(help: "Its height in pixels (two to a terminal row).") var height = 48
        @Option(help: "Pictures a second.") var rate = 4.0
        @Option(help: "Stop after this many seconds (default: until interrupted).") var seconds: Double?

        func run() async throws {
            let flapd = try connection.connection()
            let clock = ContinuousClock()
            let deadline = seconds.map { clock.now + .milliseconds(Int($0 * 1000)) }
            let interval = Duration.milliseconds(Int(1000 / max(0.5, min(30, rate))))
            let redraw = StandardStream.outputIsTerminal
            var next = clock.now
            while deadline.map({ clock.now < $0 }) ?? true {
                let reply = try await flapd.expect(.roomPicture, query: [("width", "\(width)"), ("height", "\(height)")])
                let out = StandardStream.bufferedOutput()
                out.write((redraw ? "\u{1B}[H\u{1B}[2J" : "") + String(decoding: reply.body, as: UTF8.self))
                out.flush()
                next += interval
                try await clock.sleep(until: next)
            }
        }
    }

    /// The room in a few lines, or flapd's JSON.
    static func print(_ reply: FlapdConnection.Reply, answer: JSONAnswerOption) throws {
        guard reply.status == 200 || reply.status == 201 else { throw ConnectionError("flapd answered \(reply.status): \(reply.error)") }
        if answer.printed(reply) { return }
        let room = reply.decoded(RoomStateAnswer.self)
        let members = room?.members ?? []
        let clusters = room?.clusters ?? []
        var lines = ["room \(room?.room ?? "?") (\(room?.kind ?? "?"), code \(room?.code ?? "?"), \(members.count) of \(room?.capacity ?? 0))"]
        for member in members {
            let state = (member.stale ?? false) ? "stale" : member.cluster.map { "\($0) cluster, chain \(member.chain ?? 1)" } ?? "synced with no one"
            lines.append("  \(member.colour ?? "") \(member.name ?? "?"): \(state)")
        }
        if let waiting = room?.waiting, !waiting.isEmpty { lines.append("  waiting for a place: \(waiting.joined(separator: ", "))") }
        lines.append("\(clusters.count) cluster\(clusters.count == 1 ? "" : "s"), \(room?.stars ?? 0) star\(room?.stars == 1 ? "" : "s")")
        StandardStream.writeOutput(lines.joined(separator: "\n") + "\n")
    }
}
