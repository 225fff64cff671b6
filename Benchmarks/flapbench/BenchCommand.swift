import ArgumentParser
import BenchmarkCorpus
import FlapControl
import FlapCore
import FlapLinux
import Foundation

/// `flapbench`: how fast layout and planning are on this machine, and layout against vesta;
/// with a flag, another part instead (the drivers, LED frames, flapd, heart rate, rooms).
struct Flapbench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flapbench",
        abstract: "Measure layout and planning speed (build with -c release for real figures).",
        discussion: """
            Each workload runs for --seconds, three rounds; the best round is reported (the least \
            disturbed by other load) with the median beside it. With a Python that has vesta \
            installed (--vesta-python, default .build/test-venv/bin/python when present), vesta's \
            encode_text runs the same texts in the same way and the ratio is printed.

            Examples:
              flapbench
              flapbench --frames
              flapbench --service
              flapbench --sources
            """)

    @Option(help: "Seconds each round of each workload runs.")
    var seconds: Double = 1.0

    @Option(help: "A Python with vesta 0.15.0 installed, for the layout comparison.")
    var vestaPython: String?

    @Flag(
        help:
            "Measure the split-flap drivers instead: Chainlink command → motor start over a pseudo-terminal, and the stepping thread's step-timing jitter."
    )
    var hardware = false

    @Flag(
        help:
            "Measure LED animation instead: CPU time per frame for a 64×32 RGB matrix and a 32×8 MAX7219, and the share of a core at 60 frames a second."
    )
    var frames = false

    @Flag(help: "Measure flapd instead: exec → READY, POST → plan start, requests/s, memory (starts the flapd beside flapbench).")
    var service = false

    @Flag(
        help:
            "Measure heart rate instead: a BLE strap's notification → reading through a real D-Bus (BlueZ played by python3-dbusmock; run from the project folder), readings per CPU second, flapd's memory with 20 simulated straps."
    )
    var heartRate = false

    @Flag(
        help:
            "Measure the Wematch room engine instead: one update for rooms of 20, 200 and 2 000 members; a kiosk frame on a 64x32 matrix and a 1280x720 screen; sample → frame shown."
    )
    var rooms = false

    @Flag(
        help:
            "Measure content sources instead: a calendar's values for a household's calendar and a large one, and reading each (run from the project folder)."
    )
    var sources = false

    @Option(help: "Messages for the POST → plan start measurement (with --service).")
    var messages = 1000

    @Option(help: "With --service: also measure MQTT through this running broker (mqtt://HOST:PORT).")
    var mqtt: String?

    /// Runs the benchmarks the arguments ask for. (Called from an async function, so that the
    /// async `run()` is the one chosen, not ParsableCommand's synchronous default.)
    static func runMain() async {
        do {
            var command = try parseAsRoot()
            if var benchmark = command as? Flapbench { try await benchmark.run() } else { try command.run() }
        } catch {
            exit(withError: error)
        }
    }

    /// Messages of the kind people send: short, multi-line, wrapping, with escapes and colours.
    static let typicalTexts = BenchmarkTexts.typical

    func run() async throws {
        guard seconds > 0 else { throw InputError("--seconds must be more than 0") }
        let out = StandardStream.bufferedOutput()
        #if DEBUG
            out.write("note: this is a debug build; build with `swift build -c release --static-swift-stdlib` for real figures\n")
        #endif
        if hardware {
            return try await HardwareBench(seconds: seconds, output: out).run()
        }
        if frames {
            return try await FramesBench(seconds: seconds, output: out).run()
        }
        if rooms {
            WematchBench(seconds: seconds, output: out).run()
            return try await KioskBench(seconds: seconds, output: out).run()
        }
        if sources {
            return try SourcesBench(seconds: seconds, output: out).run()
        }
        if heartRate {
            return try await HeartRateBench(seconds: seconds, output: out).run()
        }
        if service {
            return try await ServiceBench(messages: messages, seconds: seconds, output: out, mqtt: mqtt).run()
        }
        out.write("flapbench: best (median) of 3 rounds of \(seconds) s each\n")
        out.flush()
        var sink = 0
        let texts = Self.typicalTexts
        let options = LayoutOptions()

        let layout = measure(seconds: seconds) { i in
            sink &+= (try? TextLayout.encodeText(texts[i % texts.count], options: options))?.rowCount ?? 0
        }
        report(out, "layout, typical texts (encodeText)", layout)

        let jsonLines = LayoutJSONLines(defaults: options)
        let requests = texts.map { text in
            var j = JSONText()
            j.raw("{"); j.key("text", first: true); j.string(text); j.key("align"); j.string("center"); j.raw("}")
            return j.bytes
        }
        let decoder = JSONDecoder()
        var answers = JSONText()
        let jsonl = measure(seconds: seconds) { i in
            // As `--jsonl` does: answers gathered in one buffer, written out every 64 KiB.
            if answers.bytes.count >= 1 << 16 { answers.clear() }
            requests[i % requests.count].withUnsafeBufferPointer { request in
                jsonLines.answer(request, number: i, decoder: decoder, into: &answers)
            }
            answers.raw("\n")
            sink &+= answers.bytes.count
        }
        report(out, "layout --jsonl request (parse, lay out, answer)", jsonl)

        let planner = try! FlipPlanner()
        for (name, size) in [("6×22 board", BoardSize.flagship), ("24×88 wall of 16 boards", BoardSize(rows: 24, columns: 88))] {
            // Every module one flap past home: each travels 65 flaps, the longest way.
            let from = Board(size: size, fill: (CharacterCode(1) ?? .blank))
            let to = Board(size: size)
            let plan = measure(seconds: seconds) { _ in
                sink &+= (try? planner.plan(from: from, to: to))?.clackEvents.count ?? 0
            }
            report(out, "plan, \(name), worst case (65 flaps each)", plan)
        }

        try await benchSound(out, sink: &sink)

        if let counts = InstructionCounts.beside() {
            out.write("instruction counts (callgrind; the same whatever the machine's load):\n")
            out.flush()
            for workload in InstructionCounts.workloads {
                let count = counts.perOperation(workload.name, times: workload.times)
                out.write(
                    workload.label.padding(toLength: 58, withPad: " ", startingAt: 0) + " "
                        + (count.map { Self.grouped($0) + " instructions" } ?? "not counted") + "\n")
                out.flush()
            }
        } else {
            out.write(
                "instruction counts skipped: they need valgrind and the instruction-counts executable beside flapbench (swift build -c release --static-swift-stdlib --product instruction-counts)\n"
            )
        }

        if let python = vestaPython ?? defaultVestaPython() {
            if let vesta = vestaLayout(python: python, texts: texts) {
                report(out, "vesta 0.15.0 encode_text, same texts", vesta)
                out.write(String(format: "layout ratio: FlapCore is %.1f× as fast as vesta (best rounds)\n", vesta.best / layout.best))
            } else {
                out.write("vesta comparison skipped: \(python) could not run vesta\n")
            }
        } else {
            out.write("vesta comparison skipped: give --vesta-python (a Python with vesta==0.15.0)\n")
        }
        try JSONLinesBench(python: vestaPython ?? defaultVestaPython(), output: out).run()
        out.write("checksum \(sink % 1000)\nreproduce: swift build -c release --static-swift-stdlib && .build/release/flapbench\n")
        out.flush()
    }

    /// The worst-case 6×22 clack track: render speed against real time, and the CPU time to
    /// render it and write it through ALSA (the null plugin: no sound card needed).
    func benchSound(_ out: StandardStream, sink: inout Int) async throws {
        let plan = try FlipPlanner().plan(from: Board(size: .flagship, fill: (CharacterCode(1) ?? .blank)), to: Board(size: .flagship))
        let track = ClackTrack(events: plan.clackEvents, sample: .synthesized(), rate: 48_000)
        let seconds = Double(track.length) / 48_000
        var checksum = 0
        let render = measure(seconds: self.seconds) { _ in checksum &+= Int(track.render16(from: 0, count: track.length)[24_000]) }
        report(out, "clack track, 6×22 worst case (\(plan.clackEvents.count) clacks, \(String(format: "%.1f", seconds)) s)", render)
        out.write(String(format: "clack track renders %.0f× faster than real time (best round)\n", seconds / render.best))
        let output = try ALSAAudioOutput(device: "bench", configuration: "pcm.bench { type null }")
        let cpuBefore = Self.cpuSeconds()
        let frames = track.render16(from: 0, count: track.length)
        for start in stride(from: 0, to: frames.count, by: 480) {
            try await output.write(Array(frames[start..<min(frames.count, start + 480)]))
        }
        await output.close()
        let cpu = Self.cpuSeconds() - cpuBefore
        out.write(String(format: "render + write through ALSA (null), 480-frame periods: %.1f ms CPU for %.1f s of sound\n", cpu * 1000, seconds))
        out.flush()
        sink &+= checksum
    }

    /// CPU time of this process so far (user + system), in seconds.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    struct Timing {
        /// Seconds per operation.
        var best: Double
        var median: Double
    }

    func measure(seconds: Double, _ operation: (Int) -> Void) -> Timing {
        let clock = ContinuousClock()
        var perOp: [Double] = []
        for _ in 0..<3 {
            var count = 0
            let start = clock.now
            var elapsed = Duration.zero
            while elapsed < .seconds(seconds) {
                for _ in 0..<32 { operation(count); count += 1 }
                elapsed = clock.now - start
            }
            perOp.append(elapsed.seconds / Double(count))
        }
        perOp.sort()
        return Timing(best: perOp[0], median: perOp[1])
    }

    func report(_ out: StandardStream, _ name: String, _ t: Timing) {
        out.write(
            "\(name.padding(toLength: 58, withPad: " ", startingAt: 0)) \(Self.format(t.best)) (\(Self.format(t.median)))  \(String(format: "%.0f", 1 / t.best)) op/s\n"
        )
        out.flush()
    }

    /// 12 380 000: digits in groups of three.
    static func grouped(_ value: Int) -> String {
        var digits = String(value), groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        return ([digits] + groups).joined(separator: " ")
    }

    static func format(_ seconds: Double) -> String {
        seconds < 1e-3 ? String(format: "%.2f µs/op", seconds * 1e6) : String(format: "%.3f ms/op", seconds * 1e3)
    }

    func defaultVestaPython() -> String? {
        let candidate = FileManager.default.currentDirectoryPath + "/.build/test-venv/bin/python"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// Times vesta's encode_text on `texts` in its own process, the same way as ``measure``.
    func vestaLayout(python: String, texts: [String]) -> Timing? {
        let script = """
            import json, sys, time
            from vesta.chars import encode_text
            texts = json.load(sys.stdin)
            rounds = []
            for _ in range(3):
                n = 0
                start = time.perf_counter()
                while time.perf_counter() - start < \(seconds):
                    for _ in range(32):
                        encode_text(texts[n % len(texts)])
                        n += 1
                rounds.append((time.perf_counter() - start) / n)
            rounds.sort()
            print(rounds[0], rounds[1])
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        input.fileHandleForWriting.write(try! JSONSerialization.data(withJSONObject: texts))
        try? input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let parts = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard process.terminationStatus == 0, parts.count == 2 else { return nil }
        return Timing(best: parts[0], median: parts[1])
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
