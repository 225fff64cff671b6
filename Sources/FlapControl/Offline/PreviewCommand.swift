import ArgumentParser
import FlapCore
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `flapctl preview`: the transition animated in the terminal at its planned timing.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Animate a transition in the terminal as split-flap cells.",
        discussion: HelpExamples.discussion(
            "preview",
            """
            Plays the plan flapctl plan would print for the same texts and options, in real time, \
            and ends on the final board. With --no-animation, or when stdout is not a terminal, \
            prints the final board only.
            """))

    @Option(help: "The text the board shows first (default: blank).")
    var from: String = ""

    @OptionGroup var layout: LayoutArguments
    @OptionGroup var planning: PlanArguments

    @Flag(help: "Print the final board only.")
    var noAnimation = false

    @Option(help: "Write the transition's clacks to this WAV file (mono, 16-bit, 48 kHz; its first sample is the plan's time 0).")
    var wav: String?

    @Option(help: "A WAV file to use as the clack instead of the synthesized one (with --wav).")
    var sample: String?

    @Option(help: "Loudness of the clacks, 0 to 100 (with --wav).")
    var volume: Int = 100

    @Option(help: "Write a PNG picture of the final board, drawn as on a screen, to this file.")
    var png: String?

    @Option(help: "Write the transition as an animated GIF (25 frames a second, then the final board held for 3 s, looping) to this file.")
    var gif: String?

    @Argument(help: "The text to show.")
    var text: String

    func run() async throws {
        let plan = try planning.plan(from: from, to: text, layout: layout)
        if let wav { try ClackFile.write(plan, to: wav, sample: sample, volume: volume) }
        if let png { try BoardPicture.writePNG(plan.finalBoard, to: png) }
        if let gif { try BoardPicture.writeGIF(plan, to: gif) }
        let out = StandardStream.bufferedOutput()
        guard !noAnimation, StandardStream.outputIsTerminal else {
            out.writeTerminalCodes(BoardText.plain(plan.finalBoard, colour: StandardStream.outputHasColour) + "\n")
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
        output.writeTerminalCodes("\u{1B}[?25l")
        let clock = ContinuousClock()
        let start = clock.now
        var first = true
        while true {
            let elapsed = clock.now - start
            let done = elapsed >= plan.duration
            let time = done ? plan.duration : elapsed
            if !first { output.writeTerminalCodes("\u{1B}[\(plan.size.rows)A\r") }
            first = false
            output.writeTerminalCodes(frame(at: time, settled: done))
            output.flush()
            if done { break }
            try await Task.sleep(for: frameInterval)
        }
        output.writeTerminalCodes("\u{1B}[?25h")
        output.flush()
        signal(SIGINT, SIG_DFL)
    }

    func frame(at time: Duration, settled: Bool) -> String {
        let motion = plan.motion(at: time)
        return BoardText.ansi(plan.board(at: time), moving: motion.map { !settled && $0.nextLanding != nil })
    }
}

/// A plan's clacks as a WAV file.
enum ClackFile {
    static func write(_ plan: FlipPlan, to path: String, sample samplePath: String?, volume: Int) throws {
        guard (0...100).contains(volume) else { throw InputError("--volume must be 0 to 100") }
        var sample = ClackSample.synthesized()
        if let samplePath {
            guard let data = FileManager.default.contents(atPath: samplePath) else { throw InputError("cannot read the sample \(samplePath)") }
            do { sample = try WAVFile.decode(Array(data), name: samplePath) } catch { throw InputError(error.description) }
        }
        let track = ClackTrack(events: plan.clackEvents, sample: sample, rate: 48_000, volume: Float(volume) / 100)
        let bytes = WAVFile.encode(mono: track.render16(from: 0, count: track.length), rate: 48_000)
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw InputError("cannot write \(path)")
        }
    }
}
