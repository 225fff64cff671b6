import FlapControl
import Foundation

/// Instruction counts of FlapCore's workloads under valgrind's callgrind: the same for the same
/// build whatever else the machine is doing, so they show a regression that timings on a
/// shared machine hide. Each workload runs in the `instruction-counts` executable beside
/// flapbench, once with no repetitions (start-up) and once with `times`; the difference over
/// `times` is one operation's count.
struct InstructionCounts {
    let executable: String

    static let workloads: [(name: String, label: String, times: Int)] = [
        ("layout", "layout, typical texts (encodeText), per text", 200),
        ("plan-6x22", "plan, 6×22 board, worst case", 10),
        ("plan-24x88", "plan, 24×88 wall of 16 boards, worst case", 2),
        ("frame", "frame, 1280×720 screen, 6×22 cascade (drawing)", 60)
    ]

    /// The executable beside this flapbench, when valgrind is installed too.
    static func beside() -> InstructionCounts? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let executable = directory.appendingPathComponent("instruction-counts").path
        guard FileManager.default.isExecutableFile(atPath: executable),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
        else { return nil }
        return InstructionCounts(executable: executable)
    }

    /// Instructions for one operation of `workload`, or nil when callgrind could not count them.
    func perOperation(_ workload: String, times: Int) -> Int? {
        guard let base = collected(workload, 0), let total = collected(workload, times) else { return nil }
        return (total - base) / times
    }

    /// callgrind's "Collected" total for a run.
    private func collected(_ workload: String, _ times: Int) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/valgrind")
        process.arguments = ["--tool=callgrind", "--callgrind-out-file=/dev/null", executable, workload, "\(times)"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }) else { return nil }
        return Int(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "") ?? "")
    }
}
