import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import FlapControl

/// Every command's `--help` ends with examples; each example parses as flapctl reads it, and
/// docs/flapctl.md lists the very same lines.
@Suite struct HelpExamplesTests {
    /// A shell line's words, as a POSIX shell splits them (quotes, no expansion); stops at a redirection.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in line {
            if let q = quote {
                if character == q { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return Array(words.prefix { $0 != "<" && $0 != ">" && $0 != "|" })
    }

    @Test func everyCommandHasExamplesInItsHelp() {
        let commands = Flapctl.configuration.subcommands.map { $0.configuration.commandName ?? "?" }
        #expect(Set(commands) == Set(HelpExamples.byCommand.map(\.command)), "a command without examples, or examples of no command")
        for command in Flapctl.configuration.subcommands {
            let help = Flapctl.helpMessage(for: command)
            #expect(help.contains("Examples:\n  flapctl \(command.configuration.commandName ?? "?")"), "\(command.configuration.commandName ?? "?")")
        }
    }

    @Test func everyExampleParses() {
        for (command, lines) in HelpExamples.byCommand {
            for line in lines {
                let words = Self.words(line)
                #expect(words.first == "flapctl" && words.dropFirst().first == command, "\(line)")
                do {
                    _ = try Flapctl.parseAsRoot(Array(words.dropFirst()))
                } catch {
                    Issue.record("\(line): \(Flapctl.message(for: error))")
                }
            }
        }
    }

    @Test func theFlapctlPageListsTheSameExamples() throws {
        let page = try String(contentsOf: PythonPeer.packageRoot.appendingPathComponent("docs/flapctl.md"), encoding: .utf8)
        for line in HelpExamples.byCommand.flatMap(\.lines) {
            #expect(page.contains("\n" + line + "\n"), "docs/flapctl.md lacks: \(line)")
        }
    }
}
