import ArgumentParser
import FlapCore

#if canImport(Glibc)
import Glibc
#endif

/// `flapctl preview`: the transition animated in the terminal at its planned timing.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Animate a transition in the terminal as split-flap cells.",
        discussion: """
            Plays the plan flapctl plan would print for the same texts and options, in real time, \
            and ends on the final board. With --no-animation, or when stdout is not a terminal, \
            prints the final board only.
            """)

    @Option(help: "The text the board shows first (default: blank).")
    var from: String = ""

    @OptionGroup var layout: LayoutArguments
    @OptionGroup var planning: PlanArguments

    @Flag(help: "Print the final board only.")
    var noAnimation = false

    @Argument(help: "The text to show.")
    var text: String

    func run() async throws {
        let plan = try planning.plan(from: from, to: text, layout: layout)
        let out = StandardStream.bufferedOutput()
        guard !noAnimation, StandardStream.outputIsTerminal else {
            out.write(BoardText.plain(plan.finalBoard) + "\n")
            out.flush()
            return
        }
        try await TerminalAnimation(plan: plan, output: out).play()
    }
}

/// Draws a plan's frames in place with ANSI escapes: modules whose flap is falling are dimmed.
struct TerminalAnimation {
    var plan: FlipPlan
    var output: StandardStream
    /// About 30 frames a second: smoother than the 50 ms shortest flap period.
    var frameInterval: Duration = .milliseconds(33)

    func play() async throws {
        // Ctrl-C must not leave the terminal without a cursor.
        signal(SIGINT) { _ in
            let restore: StaticString = "\u{1B}[0m\u{1B}[?25h\n"
            _ = write(1, restore.utf8Start, restore.utf8CodeUnitCount)
            _exit(130)
        }
        output.write("\u{1B}[?25l")
        let clock = ContinuousClock()
        let start = clock.now
        var first = true
        while true {
            let elapsed = clock.now - start
            let done = elapsed >= plan.duration
            let time = done ? plan.duration : elapsed
            if !first { output.write("\u{1B}[\(plan.size.rows)A\r") }
            first = false
            output.write(frame(at: time, settled: done))
            output.flush()
            if done { break }
            try await Task.sleep(for: frameInterval)
        }
        output.write("\u{1B}[?25h")
        output.flush()
        signal(SIGINT, SIG_DFL)
    }

    func frame(at time: Duration, settled: Bool) -> String {
        let motion = plan.motion(at: time)
        return BoardText.ansi(plan.board(at: time), moving: motion.map { !settled && $0.nextLanding != nil })
    }
}
