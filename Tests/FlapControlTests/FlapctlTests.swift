import Foundation
import TestSupport
import Testing

/// flapctl as people and scripts use it: the built binary, its output and exit status.
@Suite struct FlapctlTests {
    let flapctl = ProcessRunner.builtProduct("flapctl")

    func run(_ arguments: [String], input: String = "") async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(flapctl, arguments, input: Data(input.utf8))
    }

    func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func layoutPrintsAFramedGrid() async throws {
        let result = try await run(["layout", "--align", "center", "Hello {63}"])
        #expect(result.status == 0)
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines[1] == "│       HELLO r        │")
    }

    @Test func layoutJSONGivesTheRowsOfCodes() async throws {
        let result = try await run(["layout", "--json", "--rows", "3", "--columns", "15", "hi"])
        let rows = try json(result.stdoutText) as! [[Int]]
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == 15 })
        #expect(rows[0].prefix(3) == [8, 9, 0])
    }

    @Test func valignNoneGivesOnlyTheTextsRowsAsVestaDoes() async throws {
        let rows = try await json(try run(["layout", "--json", "--valign", "none", "one\ntwo"]).stdoutText) as! [[Int]]
        #expect(rows.count == 2)
        // Planning still needs the whole board.
        let plan = try await json(try run(["plan", "--to", "x", "--valign", "none", "--json"]).stdoutText) as! [String: Any]
        #expect((plan["modules"] as! [Any]).count == 132)
    }

    @Test func invalidTextExitsTwoWithTheReasonOnStderr() async throws {
        let result = try await run(["layout", "ab{99}"])
        #expect(result.status == 2)
        #expect(result.stdoutText.isEmpty)
        #expect(result.stderrText.contains("line 1, position 4: unsupported character code: 99"))
    }

    @Test func badOptionsExitTwoToo() async throws {
        #expect(try await run(["layout", "--align", "diagonal", "x"]).status == 2)
        #expect(try await run(["layout", "--fill", "43", "x"]).status == 2)
        #expect(try await run(["plan", "--to", "x", "--period-ms", "500"]).status == 2)
        #expect(try await run(["plan", "--to", "x", "--drum", "nosuch"]).status == 2)
    }

    @Test func substitutionsAreReportedAsWarningsOnStderr() async throws {
        let result = try await run(["layout", "--json", "Café"])
        #expect(result.status == 0)
        #expect(result.stderrText == "warning: line 1, position 4: 'é' shown as 'E'\n")
        #expect(try await run(["layout", "--no-substitutions", "Café"]).status == 2)
    }

    @Test func jsonLinesAnswersEveryRequestInOrder() async throws {
        let input =
            [
                #"{"text": "Hi", "align": "right", "columns": 5, "maxRows": 1}"#,
                #"{"text": "x{5", "valign": null}"#,
                #"{"text": "a\nb", "valign": "none", "fill": 63}"#,
                "not json",
                #"{"text": 3}"#
            ].joined(separator: "\n") + "\n"
        let result = try await run(["layout", "--jsonl"], input: input)
        #expect(result.status == 0)
        let answers = try result.stdoutText.split(separator: "\n").map { try json(String($0)) as! [String: Any] }
        #expect(answers.count == 5)
        #expect(answers[0]["rows"] as? [[Int]] == [[0, 0, 0, 8, 9]])
        #expect(answers[1]["error"] as? String == "2: missing } at index 3 or 4")
        #expect(answers[1]["line"] as? Int == 1 && answers[1]["position"] as? Int == 2)
        #expect((answers[2]["rows"] as? [[Int]])?.count == 2)
        #expect(answers[3]["request"] as? Int == 4)
        #expect(answers[4]["error"] as? String == "\"text\" must be a string")
    }

    @Test func jsonLinesHandlesAHundredThousandRequestsInOneProcess() async throws {
        var input = ""
        for i in 0..<100_000 {
            input += i % 1000 == 999 ? "{\"text\": \"bad ~ \(i)\"}\n" : "{\"text\": \"message \(i)\", \"align\": \"center\"}\n"
        }
        let result = try await run(["layout", "--jsonl"], input: input)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: 0x0A)
        #expect(lines.count == 100_000)
        #expect(lines.filter { $0.starts(with: Array(#"{"error""#.utf8)) }.count == 100)
        let last = try json(String(decoding: lines[99_998], as: UTF8.self)) as! [String: Any]
        #expect((last["rows"] as? [[Int]])?.first?.contains(35) == true)  // "message 99998": the 9s
    }

    @Test func planJSONListsEveryModuleWithItsPathAndTimes() async throws {
        let result = try await run(["plan", "--from", "A", "--to", "C", "--json"])
        #expect(result.status == 0)
        let plan = try json(result.stdoutText) as! [String: Any]
        let modules = plan["modules"] as! [[String: Any]]
        #expect(modules.count == 132)
        #expect(modules[0]["path"] as? [Int] == [1, 2, 3])
        #expect(modules[0]["landingsMs"] as? [Int] == [120, 240])
        #expect(modules[1]["path"] as? [Int] == [0] && (modules[1]["landingsMs"] as? [Int])?.isEmpty == true)
        #expect(modules[1]["startMs"] as? Int == 20)
        #expect(plan["durationMs"] as? Int == 240)
        #expect(plan["clacks"] as? Int == 2)
        let clacks = plan["clackEvents"] as! [[String: Any]]
        #expect(clacks.map { $0["ms"] as? Int } == [120, 240])
    }

    @Test func planAndPreviewDescribeTheSameMotion() async throws {
        let options = ["--strategy", "random", "--seed", "4", "--drum", "chainlink40"]
        let plan = try await json(try run(["plan", "--from", "one", "--to", "two !", "--json"] + options).stdoutText) as! [String: Any]
        #expect(plan["drum"] as? String == "chainlink40")
        let preview = try await run(["preview", "--from", "one"] + options + ["two !"])
        #expect(preview.status == 0)
        let layout = try await run(["layout", "two ."])
        #expect(preview.stdoutText == layout.stdoutText)
        #expect(preview.stderrText.contains("drum chainlink40 has no ! (37): shown as . (56)"))
    }

    @Test func shortestPlansForAVirtualPanel() async throws {
        let plan = try await json(try run(["plan", "--from", "B", "--to", " ", "--shortest", "--json"]).stdoutText) as! [String: Any]
        let first = (plan["modules"] as! [[String: Any]])[0]
        #expect(first["path"] as? [Int] == [2, 1, 0])
    }
}

/// `flapctl preview --wav`: the track, mono 16-bit 48 kHz, first sample at the plan's time 0.
@Suite struct PreviewWAVTests {
    @Test func theWAVStartsAtPlanTimeZeroWithAClackAtEveryLanding() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // A one-sample clack, so each landing is one non-zero sample.
        let impulse = dir.appendingPathComponent("impulse.wav").path
        var bytes: [UInt8] = Array("RIFF".utf8) + [38, 0, 0, 0] + Array("WAVE".utf8) + Array("fmt ".utf8)
        bytes += [16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0xBB, 0, 0, 0, 0x77, 1, 0, 2, 0, 16, 0] + Array("data".utf8) + [2, 0, 0, 0, 0xFF, 0x7F]
        FileManager.default.createFile(atPath: impulse, contents: Data(bytes))
        let out = dir.appendingPathComponent("plan.wav").path
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let result = try await ProcessRunner.run(flapctl, ["preview", "--no-animation", "--wav", out, "--sample", impulse, "--from", "A", "ACE"])
        #expect(result.status == 0, "\(result.stderrText)")
        let plan =
            try JSONSerialization.jsonObject(with: try await ProcessRunner.run(flapctl, ["plan", "--from", "A", "--to", "ACE", "--json"]).stdout)
            as! [String: Any]
        let landings = (plan["clackEvents"] as! [[String: Any]]).map { $0["ms"] as! Int }
        let wav = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(wav[22] == 1 && wav[34] == 16)  // mono, 16-bit
        #expect(Int(wav[24]) | Int(wav[25]) << 8 | Int(wav[26]) << 16 == 48_000)
        let samples = stride(from: 44, to: wav.count, by: 2).map { Int16(bitPattern: UInt16(wav[$0]) | UInt16(wav[$0 + 1]) << 8) }
        let onsets = samples.indices.filter { samples[$0] != 0 }
        #expect(onsets == Array(Set(landings.map { $0 * 48 })).sorted())
        let bad = try await ProcessRunner.run(flapctl, ["preview", "--no-animation", "--wav", out, "--sample", out + ".missing", "X"])
        #expect(bad.status == 2)
    }
}
