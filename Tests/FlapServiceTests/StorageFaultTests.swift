import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd's state directory on a real filesystem of a few MiB that fills up or turns read-only,
/// as an SD card does: nothing acknowledged is lost, nothing is acknowledged that was not
/// kept, every refusal says why, and flapd carries on by itself when the disk does.
@Suite(.cleansUp, .timeLimit(.minutes(3)), .serialized, .enabled(if: SmallFilesystem.canMount, "mounting a small filesystem needs root"))
struct StorageFaultTests {
    static func message(_ index: Int) -> String {
        #"{"id": "m\#(index)", "sender": {"id": "s\#(index % 7)"}, "text": "MESSAGE \#(index) \#(String(repeating: "X", count: 60))"}"#
    }

    static func localKey(_ flapd: FlapdProcess) async throws -> String {
        let token = try String(contentsOfFile: flapd.stateDirectory + "/local-api-enablement-token", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let enabled = try await HTTPClient(base: flapd.localAPIBase)
            .request("POST", "/local-api/enablement", headers: ["X-Vestaboard-Local-Api-Enablement-Token": token])
        return try #require(enabled.object["apiKey"] as? String)
    }

    @Test func aFullDiskIsRefusedWith507AndFlapdCarriesOnWhenSpaceComesBack() async throws {
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        let flapd = try await FlapdProcess.start(stateDirectory: disk.path, arguments: ["--rate-limit", "0", "--no-sound"])
        let api = flapd.api
        let localKey = try await Self.localKey(flapd)
        var acknowledged: [String] = []
        for index in 0..<5 {
            #expect(try await api.postJSON("/v1/messages", Self.message(index)).status == 202)
            acknowledged.append("m\(index)")
        }

        // A board that takes a few seconds to flip to, so the panel comes to rest on it while the disk is full.
        let resting = #"{"id": "rests-while-full", "sender": {"id": "wall"}, "text": "\#(String(repeating: "Z", count: 22))"}"#
        #expect(try await api.postJSON("/v1/messages", resting).status == 202)
        acknowledged.append("rests-while-full")

        // Filled up. The WAL may have room for a few more writes (a quick message, saved over
        // and over, leaves the board alone): each is kept or refused, never half done.
        try disk.fill()
        var probe: HTTPClient.Reply?
        for index in 0..<400 {
            probe = try await api.request(
                "PUT", "/v1/templates/probe", body: Data(#"{"text": "PROBE \#(index)"}"#.utf8),
                headers: ["Content-Type": "application/json"])
            if probe?.status != 200 && probe?.status != 201 { break }
        }
        #expect(probe?.status == 507, "\(probe?.status ?? 0): \(probe?.text ?? "")")
        let full = try await api.postJSON("/v1/messages", Self.message(5))
        #expect(full.status == 507, "\(full.status): \(full.text)")
        #expect(full.error.contains("the disk is full") && full.error.contains(disk.path + "/inbox.sqlite"), "\(full.text)")
        // The Local API says it in its own shape; quick messages and schedules are refused the same way.
        let local = try await HTTPClient(base: flapd.localAPIBase, headers: ["X-Vestaboard-Local-Api-Key": localKey])
            .postJSON(
                "/local-api/message",
                "[" + Array(repeating: "[" + Array(repeating: "8", count: 22).joined(separator: ",") + "]", count: 6).joined(separator: ",") + "]")
        #expect(local.status == 507 && (local.object["message"] as? String)?.contains("the disk is full") == true, "\(local.status): \(local.text)")
        let template = try await api.request(
            "PUT", "/v1/templates/dinner", body: Data(#"{"text": "DINNER"}"#.utf8),
            headers: ["Content-Type": "application/json"])
        #expect(template.status == 507, "\(template.status): \(template.text)")
        let schedule = try await api.post("/v1/schedules", json: ["name": "bins", "days": ["weekdays"], "times": ["08:00"], "text": "BINS"])
        #expect(schedule.status == 507, "\(schedule.status): \(schedule.text)")
        #expect(flapd.process.poll() == nil)

        // The status says so, and the log said so once, with the path and the free space.
        let storage = try #require(try await api.get("/v1/status").object["storage"] as? [String: Any])
        #expect(storage["state"] as? String == "full", "\(storage)")
        #expect((storage["faults"] as? [[String: Any]])?.first?["path"] as? String == disk.path + "/inbox.sqlite")
        let said = flapd.process.stderr.components(separatedBy: "the disk is full").count - 1
        #expect(said == 1, "said \(said) times:\n\(flapd.process.stderr)")
        #expect(flapd.process.stderr.contains("path=\(disk.path)/inbox.sqlite") && flapd.process.stderr.contains("free="))
        // The board goes on: it comes to rest on the message it was moving to, whose record waits.
        var moving = true
        _ = try await eventually(every: .milliseconds(50)) {
            let panels = try await api.get("/v1/status").object["panels"] as? [[String: Any]] ?? []
            moving = panels.first?["moving"] as? Bool ?? true
            return !moving
        }
        #expect(!moving)
        #expect(try await api.get("/v1/receipts/rests-while-full").object["status"] as? String == "accepted")

        // Space comes back: everything resumes by itself, the waiting record first.
        try disk.free()
        var recorded: String?
        _ = try await eventually(every: .milliseconds(50)) {
            recorded = try await api.get("/v1/receipts/rests-while-full").object["status"] as? String
            return recorded == "displayed"
        }
        #expect(recorded == "displayed")
        let resumed = try await api.postJSON("/v1/messages", Self.message(1000))
        #expect(resumed.status == 202, "\(resumed.status): \(resumed.text)")
        acknowledged.append("m1000")
        #expect(try await api.get("/v1/status").object["storage"].flatMap { $0 as? [String: Any] }?["state"] as? String == "ok")
        #expect(flapd.process.stderr.contains("can be written again"))

        // Nothing acknowledged was lost and no file was damaged.
        #expect(await flapd.terminate() == 0)
        #expect(try await sqliteIntegrity(disk.path + "/inbox.sqlite") == "ok")
        let again = try await FlapdProcess.start(stateDirectory: disk.path, arguments: ["--rate-limit", "0", "--no-sound"])
        teardown { await again.stop() }
        for id in acknowledged {
            #expect(try await again.api.get("/v1/receipts/\(id)").status == 200, "lost \(id)")
        }
    }

    @Test func mqttMessagesTheDiskCannotTakeAreNotAcknowledged() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        let arguments = ["--no-sound", "--rate-limit", "0", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "sd"]
        var flapd = try await MQTTCrashSafetyTests.start(state: disk.path, arguments: arguments)
        func publish(_ index: Int) async throws {
            let result = try await ProcessRunner.run(
                "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "vestawidget/sd/message", "-m", Self.message(index)])
            #expect(result.status == 0, "\(result.stderrText)")
        }

        // Refused by the disk, so never acknowledged: after a kill the broker still has it.
        try disk.fill()
        try await publish(1)
        _ = try await flapd.process.waitForLog("the disk is full")
        flapd.process.signal(SIGKILL)
        _ = await flapd.process.wait()
        try disk.free()
        flapd = try await MQTTCrashSafetyTests.start(state: disk.path, arguments: arguments)
        #expect(try await Self.receipt("m1", from: flapd), "the broker did not deliver the unacknowledged message again")

        // Without a restart: offered again until the disk takes it. The inbox's write-ahead log
        // may still have room for a message or two (SQLite reuses its space), so messages are
        // published until the disk refuses one; each taken meanwhile is kept, with its receipt.
        try disk.fill()
        var refused: Int?
        for index in 2...30 where refused == nil {
            let faults = flapd.process.stderr.components(separatedBy: "the disk is full").count
            try await publish(index)
            var kept = false
            _ = try await eventually(every: .milliseconds(50)) {
                kept = try await flapd.api.get("/v1/receipts/m\(index)").status == 200
                return kept || flapd.process.stderr.components(separatedBy: "the disk is full").count > faults
            }
            if !kept { refused = index }
        }
        let unkept = try #require(refused, "the full disk took every message")
        #expect(try await flapd.api.get("/v1/receipts/m\(unkept)").status == 404)
        try disk.free()
        #expect(try await Self.receipt("m\(unkept)", from: flapd), "not taken once the disk had room")
        await flapd.stop()
        #expect(try await sqliteIntegrity(disk.path + "/inbox.sqlite") == "ok")
    }

    /// Waits (up to 20 s) for `id`'s receipt.
    static func receipt(_ id: String, from flapd: any RunningFlapd) async throws -> Bool {
        try await eventually(every: .milliseconds(50)) { try await flapd.api.get("/v1/receipts/\(id)").status == 200 }
    }

    @Test func aDiskThatFailsIntoReadOnlyIsNamedAndTheBoardKeepsShowing() async throws {
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        let flapd = try await InProcessFlapd.start(stateDirectory: disk.path, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        #expect(try await flapd.api.postJSON("/v1/messages", Self.message(1)).status == 202)
        try await disk.failIntoReadOnly()
        let refused = try await flapd.api.postJSON("/v1/messages", Self.message(2))
        #expect(refused.status == 503, "\(refused.status): \(refused.text)")
        #expect(refused.error.contains("read-only") && refused.error.contains(disk.path), "\(refused.text)")
        let storage = try #require(try await flapd.api.get("/v1/status").object["storage"] as? [String: Any])
        #expect(storage["state"] as? String == "read-only", "\(storage)")
        #expect(try await flapd.api.get("/v1/board").status == 200)
        #expect(flapd.isRunning, "flapd stopped")
        #expect(flapd.said.components(separatedBy: "the disk is read-only").count - 1 == 1, "\(flapd.said)")
    }

    @Test func aReadOnlyStateDirectoryAtStartIsNamedWithWhatToDo() async throws {
        let disk = try await SmallFilesystem.mount(mebibytes: 6)
        teardown { await disk.unmount() }
        // A first start makes the inbox and keys; the card then comes back read-only.
        let first = try await FlapdProcess.start(stateDirectory: disk.path, arguments: ["--no-sound"])
        #expect(await first.terminate() == 0)
        try await disk.remount(readOnly: true)
        let second = try ChildProcess(
            ProcessRunner.builtProduct("flapd"),
            ["--simulate", "--state-dir", disk.path, "--api-port", "0", "--https-port", "0", "--local-api-port", "0", "--api-key", "k", "--no-sound"])
        let status = await second.wait(patience: .seconds(120))
        #expect(status != nil && status != 0)
        #expect(second.stderr.contains("read-only") && second.stderr.contains(disk.path), "\(second.stderr)")
        #expect(second.stderr.contains("remount"), "says what to do: \(second.stderr)")
    }

    @Test func aDamagedInboxIsMovedAsideAndFlapdStartsWithAnEmptyOne() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let garbage = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: URL(fileURLWithPath: state + "/inbox.sqlite"))
        let flapd = try await InProcessFlapd.start(stateDirectory: state, arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let aside = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("inbox.sqlite.damaged-") }
        #expect(aside.count == 1, "\(aside)")
        // Kept as it was, never deleted.
        #expect(FileManager.default.contents(atPath: state + "/" + (aside.first ?? "")) == garbage)
        #expect(flapd.said.contains("moved aside"))
        let storage = try #require(try await flapd.api.get("/v1/status").object["storage"] as? [String: Any])
        let moved = try #require((storage["movedAside"] as? [[String: Any]])?.first)
        #expect(moved["path"] as? String == state + "/inbox.sqlite" && (moved["movedTo"] as? String)?.hasSuffix(aside.first ?? "?") == true)
        #expect(try await flapd.api.postJSON("/v1/messages", Self.message(1)).status == 202)
    }
}
