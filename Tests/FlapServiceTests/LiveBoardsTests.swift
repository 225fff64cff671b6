import Foundation
import TestSupport
import Testing

/// `GET /v1/events`: plans and resting boards as Server-Sent Events, read by curl.
@Suite(.cleansUp, .timeLimit(.minutes(4))) struct LiveBoardsTests {
    func watch(_ flapd: any RunningFlapd, seconds: Int) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/curl",
            [
                "-sN", "--max-time", "\(seconds)", "-H", "Authorization: Bearer \(flapd.apiKey)",
                "http://127.0.0.1:\(flapd.apiPort)/v1/events"
            ])
    }

    /// The boards' events in `text` (`board` and `plan`; the owner's presence is PresenceTests'): (name, JSON object).
    func events(_ text: String) -> [(String, [String: Any])] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
            else { return nil }
            return (String(name), object)
        }.filter { ["board", "plan"].contains($0.0) }
    }

    @Test func aWatcherSeesTheBoardThenEachPlanAndWhereItRests() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        // Watching as long as the waits below may last (the teardown ends it sooner): a cascade
        // on two cores shared with the whole suite has outlasted a shorter watch.
        let first = try watch(flapd, seconds: 150)
        teardown { await first.stop() }
        // Watching once the board as it is has come.
        _ = try await eventually { first.stdout.contains("event: board") }
        // Times on flapd's clock, which is virtual.
        let before = flapd.now.timeIntervalSince1970 * 1000
        _ = try await flapd.api.postJSON("/v1/messages", #"{"id": "e1", "text": "LIVE"}"#)
        var seen: [(String, [String: Any])] = []
        _ = try await eventually(every: .milliseconds(100)) {
            seen = events(first.stdout)
            return seen.contains(where: { $0.0 == "board" && "\($0.1["codes"] ?? "")".contains("12") })
        }
        #expect(first.stdout.hasPrefix("retry: 2000"))
        #expect(seen.first?.0 == "board" && seen.first?.1["panel"] as? String == "main")
        let plan = try #require(seen.first { $0.0 == "plan" }?.1)
        let startedAt = try #require(plan["startedAt"] as? Double)
        #expect(startedAt >= before - 50 && startedAt <= flapd.now.timeIntervalSince1970 * 1000)
        let modules = try #require(plan["modules"] as? [[String: Any]])
        #expect(modules.count == 132 && plan["rows"] as? Int == 6 && plan["columns"] as? Int == 22)
        // Some module's path ends on L (12), landing by landing.
        #expect(modules.contains { ($0["path"] as? [Int])?.last == 12 && ($0["landings"] as? [Double])?.count == 12 })
        let rested = try #require(seen.last { $0.0 == "board" }?.1["codes"] as? [[Int]])
        #expect(rested.flatMap { $0 }.contains(12))
        // Each event's object is what the OpenAPI description says it is.
        let description = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json").path
        for (name, schema) in [("board", "LiveBoardEvent"), ("plan", "LivePlanEvent")] {
            let object = try #require(seen.first { $0.0 == name }?.1)
            let checked = try await ProcessRunner.run(
                try await PythonPeer.python(),
                [
                    PythonPeer.peersDirectory.appendingPathComponent("openapi_answer_check.py").path, description, schema
                ], input: try JSONSerialization.data(withJSONObject: object))
            #expect(checked.stdoutText.hasPrefix("valid"), "\(name): \(checked.stdoutText)\(checked.stderrText)")
        }

        // A watcher arriving mid-motion gets the board as it stands and the plan in flight.
        // Column by column, ten seconds apart (the longest step there is): the motion lasts 220 s,
        // so a watcher started on however busy a machine joins while it runs (the test ends first).
        _ = try await flapd.api.postJSON(
            "/v1/messages", #"{"id": "e2", "text": "ZZZZZZZZZZZZZZZZZZZZZZ", "transition": {"strategy": "column", "stepIntervalMs": 10000}}"#)
        let moving = try await eventually(every: .milliseconds(20)) {
            (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first?["moving"] as? Bool == true
        }
        #expect(moving)
        let late = try watch(flapd, seconds: 10)
        teardown { await late.stop() }
        var joined: [(String, [String: Any])] = []
        _ = try await eventually(every: .milliseconds(30)) {
            joined = events(late.stdout)
            return joined.count >= 2
        }
        #expect(joined.first?.0 == "board" && joined.dropFirst().first?.0 == "plan", "\(joined.map(\.0))")
    }

    /// Pages watching the board do not hold flapd up when it stops: their streams end with it.
    @Test func watchersDoNotKeepFlapdFromStopping() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        // Watchers that held flapd up would do so for their ten minutes, far past terminate()'s
        // two (a guard against a hang, whatever the machine's load).
        let watchers = try (0..<3).map { _ in try watch(flapd, seconds: 600) }
        teardown { for watcher in watchers { await watcher.stop() } }
        _ = try await eventually(every: .milliseconds(50)) { watchers.allSatisfy { $0.stdout.contains("event: board") } }
        #expect(await flapd.terminate() == 0, "flapd waited for its watchers")
        for watcher in watchers { #expect(await watcher.wait() != nil, "a watcher's stream did not end") }
    }

    /// Pages that leave while the board is still: their connections are let go within 30 s
    /// (the stream's heartbeat finds them), so closed pages cannot pile up descriptors. Two rounds
    /// of 120, so that both fit under the port's 256 connections even before flapd has noticed
    /// the first round close (on a busy machine it may not have: the limit is another test's).
    @Test func closedStreamsAreLetGoWhileTheBoardIsStill() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let pid = flapd.process.pid
        func descriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }
        _ = try await flapd.api.get("/v1/board")
        let baseline = descriptors()
        let churn = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("event_stream_churn.py").path, "\(flapd.apiPort)", flapd.apiKey, "120", "2"
            ])
        #expect(churn.stdoutText.hasPrefix("closed 240"), "\(churn.stdoutText)\(churn.stderrText)")
        let afterClose = descriptors()
        var now = afterClose
        _ = try await eventually(every: .milliseconds(500)) {
            now = descriptors()
            return now <= baseline + 4
        }
        #expect(now <= baseline + 4, "descriptors \(baseline) → \(afterClose) after closing 240 streams → \(now) after 30 s")
    }
}
