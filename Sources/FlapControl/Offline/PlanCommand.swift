import ArgumentParser
import FlapCore
import FoundationEssentials

/// `flapctl plan`: every module's path and timing between two texts.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Plan the flips from one text to another.",
        discussion: HelpExamples.discussion(
            "plan",
            """
            Defaults (drum vestaboard, cascade, 120 ms a flap, forward only) are the same as \
            flapctl preview's, so both describe the same motion. --json prints {"durationMs", \
            "clacks", "modules": [{"row", "column", "path", "startMs", "landingsMs", "endMs"}], \
            "clackEvents": [{"ms", "row", "column", "gain"}], "warnings"}; rows and columns are \
            0-based, times in ms from the plan's start, paths in drum indices starting where each \
            module is.
            """))

    @Option(help: "The text the board shows now (default: blank).")
    var from: String = ""

    @Option(help: "The text to show.")
    var to: String

    @OptionGroup var layout: LayoutArguments
    @OptionGroup var planning: PlanArguments

    @Flag(help: "Print the whole plan as JSON.")
    var json = false

    func run() throws {
        let plan = try planning.plan(from: from, to: to, layout: layout)
        let out = StandardStream.bufferedOutput()
        if json {
            out.write(bytes: PlanJSON.encode(plan, strategy: planning.strategy))
            out.write("\n")
        } else {
            out.write(PlanJSON.summary(plan, strategy: planning.strategy) + "\n")
        }
        out.flush()
    }
}

/// A plan as JSON and as a summary for people.
enum PlanJSON {
    static func encode(_ plan: FlipPlan, strategy: TransitionStrategy) -> [UInt8] {
        var j = JSONText()
        j.raw("{")
        j.key("rows", first: true); j.int(plan.size.rows)
        j.key("columns"); j.int(plan.size.columns)
        j.key("drum"); j.string(plan.drum.name)
        j.key("strategy"); j.string(strategy.rawValue)
        j.key("durationMs"); j.milliseconds(plan.duration)
        j.key("clacks"); j.int(plan.clackEvents.count)
        j.key("modules")
        j.array(plan.modules) { j, m in
            j.raw("{")
            j.key("row", first: true); j.int(m.row)
            j.key("column"); j.int(m.column)
            j.key("path"); j.array(m.path) { $0.int($1) }
            j.key("startMs"); j.milliseconds(m.start)
            j.key("landingsMs"); j.array(m.landings) { $0.milliseconds($1) }
            j.key("endMs"); j.milliseconds(m.end)
            j.raw("}")
        }
        j.key("clackEvents")
        j.array(plan.clackEvents) { j, e in
            j.raw("{")
            j.key("ms", first: true); j.milliseconds(e.time)
            j.key("row"); j.int(e.row)
            j.key("column"); j.int(e.column)
            j.key("gain"); j.raw(String((e.gain * 1000).rounded() / 1000))
            j.raw("}")
        }
        j.key("warnings")
        j.array(plan.warnings) { $0.string($1) }
        j.raw("}")
        return j.bytes
    }

    static func summary(_ plan: FlipPlan, strategy: TransitionStrategy) -> String {
        let moving = plan.modules.filter { !$0.landings.isEmpty }
        let longest = plan.modules.max { $0.landings.count < $1.landings.count }
        var lines = [
            "\(plan.size) board, drum \(plan.drum.name) (\(plan.drum.count) flaps), \(strategy.rawValue)",
            "\(moving.count) of \(plan.modules.count) modules move, \(plan.clackEvents.count) flaps in all, done in \(seconds(plan.duration))"
        ]
        if let longest, !longest.landings.isEmpty {
            lines.append("longest path: \(longest.landings.count) flaps (row \(longest.row + 1), column \(longest.column + 1))")
        }
        lines.append(BoardText.plain(plan.finalBoard, colour: StandardStream.outputHasColour))
        return lines.joined(separator: "\n")
    }

    static func seconds(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return ms < 1000 ? "\(Int(ms)) ms" : String(cFormat: "%.2f s", ms / 1000)
    }
}
