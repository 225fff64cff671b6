import BenchmarkCorpus
import FlapControl
import FlapCore
import Foundation

/// `flapctl layout --jsonl` as a whole process (start-up, reading, layout, answers) on 100 000
/// requests from a file, against the same requests through vesta's `encode_text` in one CPython
/// process (`json.loads`, `encode_text`, `json.dumps` a line): best of 3 runs each.
struct JSONLinesBench {
    var python: String?
    var output: StandardStream
    static let requests = 100_000

    func run() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flapctl-bench-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.requestLines().write(to: file)
        let flapctl = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent().appendingPathComponent("flapctl").path
        guard FileManager.default.isExecutableFile(atPath: flapctl) else {
            return write("layout --jsonl skipped", "no flapctl beside flapbench (swift build -c release --static-swift-stdlib --product flapctl)")
        }
        let ours = try best(of: 3) { try Self.time(flapctl, ["layout", "--jsonl"], input: file) }
        write("layout --jsonl, \(Self.requests) requests, whole process", String(format: "%.3f s", ours))
        guard let python else {
            return write("vesta --jsonl comparison skipped", "give --vesta-python (a Python with vesta==0.15.0)")
        }
        let script = """
            import json, sys
            from vesta.chars import encode_text
            out = sys.stdout
            for line in open(sys.argv[1]):
                request = json.loads(line)
                try:
                    out.write(json.dumps({"rows": encode_text(request["text"])}) + "\\n")
                except Exception as e:
                    out.write(json.dumps({"error": str(e)}) + "\\n")
            """
        guard let vesta = try? best(of: 3, { try Self.time(python, ["-c", script, file.path], input: nil) }) else {
            return write("vesta --jsonl comparison skipped", "\(python) could not run vesta")
        }
        write("vesta 0.15.0, the same requests, one CPython process", String(format: "%.3f s", vesta))
        output.write(String(format: "layout --jsonl ratio: flapctl is %.1f× as fast as vesta (whole processes, best runs)\n", vesta / ours))
        output.flush()
    }

    /// Typical texts, each with its request's number (so no two lines are the same), as JSON lines.
    static func requestLines() -> Data {
        var json = JSONText()
        let texts = BenchmarkTexts.typical
        for i in 0..<requests {
            json.raw("{")
            json.key("text", first: true)
            json.string("\(texts[i % texts.count]) \(i)")
            json.raw("}\n")
        }
        return Data(json.bytes)
    }

    private func best(of runs: Int, _ run: () throws -> Double) throws -> Double {
        var times: [Double] = []
        for _ in 0..<runs { times.append(try run()) }
        return times.min() ?? 0
    }

    /// Seconds from start to exit of `executable`, its output discarded; it must exit with 0.
    private static func time(_ executable: String, _ arguments: [String], input: URL?) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        guard process.terminationStatus == 0 else { throw InputError("\(executable) exited with \(process.terminationStatus)") }
        return elapsed.seconds
    }

    private func write(_ name: String, _ value: String) {
        output.write("\(name.padding(toLength: 58, withPad: " ", startingAt: 0)) \(value)\n")
        output.flush()
    }
}
