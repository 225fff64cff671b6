import ArgumentParser
import FoundationEssentials

/// `--json` on the commands that ask a running flapd: flapd's answer printed as it came, for
/// scripts, instead of the words.
struct JSONAnswerOption: ParsableArguments {
    @Flag(help: "Print flapd's JSON answer.")
    var json = false

    /// Prints `reply`'s body when `--json` was given; whether it did.
    func printed(_ reply: FlapdConnection.Reply) -> Bool {
        guard json else { return false }
        StandardStream.writeOutput(bytes: Array((TerminalText.escapedJSON(String(decoding: reply.body, as: UTF8.self)) + "\n").utf8))
        return true
    }
}
