import ArgumentParser
import FlapEndpoints
import FlapJSON
import FoundationEssentials

/// `flapctl settings`: what the page's Settings do, from a shell: every setting with where its
/// value comes from, a change (checked by flapd.toml's own reader, applied within seconds), and
/// the file's value taken back.
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show flapd's settings and where each comes from; set one, or go back to the file's value.",
        discussion: HelpExamples.discussion(
            "settings",
            "A change is kept in the state directory's settings.toml, over flapd.toml (which is never written), and applied without a restart."),
        subcommands: [Show.self, Set.self, Unset.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every setting (or those starting with PREFIX), its value and where it comes from.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "Only the settings whose key starts with this, such as sound or panel[0].") var prefix: String?
        @OptionGroup var answer: JSONAnswerOption

        func run() async throws {
            let reply = try await connection.connection().expect(.settings)
            if answer.printed(reply) { return }
            let settings = ((try? JSONValue(parsing: reply.body))?["settings"]?.array ?? []).filter { setting in
                prefix.map { setting["key"]?.string?.hasPrefix($0) == true } ?? true
            }
            StandardStream.writeOutput(settings.map(SettingsCommand.line).joined(separator: "\n") + "\n")
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set KEY to VALUE: a number, true, false, [a list] or {a table} as such, anything else as text.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The setting, as flapd's errors name it: sound.volume, panel[0].size.") var key: String
        @Argument(help: "Its value.") var value: String

        func run() async throws {
            try await change(key, to: SettingsCommand.value(value), connection)
            StandardStream.writeOutput("\(key) = \(SettingsCommand.value(value).text); applying it now\n")
        }
    }

    struct Unset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take back KEY's value set from the page: flapd.toml's, or flapd's default, is used again.")
        @OptionGroup var connection: ConnectionOptions
        @Argument(help: "The setting: sound.volume, panel[0].size; panel[1] takes a whole panel the page added.") var key: String

        func run() async throws {
            try await change(key, to: .null, connection)
            StandardStream.writeOutput("\(key): the file's value again\n")
        }
    }

    /// A value as typed: JSON when it reads as JSON, else text (`hw:1`, `3x15`, `0.0.0.0`).
    static func value(_ typed: String) -> JSONValue {
        (try? JSONValue(parsing: Array(typed.utf8))) ?? .string(typed)
    }

    /// `key = value  (where it comes from)`.
    static func line(_ setting: JSONValue) -> String {
        let key = setting["key"]?.string ?? "?"
        let origin = setting["origin"]?.string ?? "default"
        if setting["type"]?.string == "secret" { return "\(key) = \(setting["given"]?.bool == true ? "(given)" : "(none)")  (\(origin))" }
        guard let value = setting["value"] else { return "\(key)  (default)" }
        var line = "\(key) = \(value.text)  (\(origin == "file" ? "flapd.toml" : origin))"
        if origin == "page" { line += "; the file's: \(setting["fileValue"]?.text ?? "none")" }
        return line
    }
}

/// Sends one change to flapd; a refusal is an error naming the key.
private func change(_ key: String, to value: JSONValue, _ connection: ConnectionOptions) async throws {
    let body = JSONValue.object(["changes": .array([.object(["key": .string(key), "value": value])])])
    _ = try await connection.connection().expect(.changeSettings, json: Data(body.text.utf8))
}
