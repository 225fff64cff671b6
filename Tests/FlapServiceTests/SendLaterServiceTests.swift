import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Send later through the running flapd: committed at once, kept through a SIGKILL, shown once
/// at its instant; listed and cancelled over the API and with flapctl.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SendLaterServiceTests {
    static func stamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    static func receiptStatus(_ flapd: any RunningFlapd, _ id: String) async throws -> String? {
        try await flapd.api.get("/v1/receipts/\(id)").object["status"] as? String
    }

    @Test func aMessageForLaterSurvivesSIGKILLAndIsShownOnceAtItsInstant() async throws {
        let first = try await FlapdProcess.start()
        let instant = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 6).rounded(.up))  // whole seconds, as stamped
        let reply = try await first.api.post(
            "/v1/messages",
            json: [
                "id": "at-four", "sender": ["id": "kitchen"], "text": "LATER",
                "notBefore": Self.stamp(instant)
            ])
        #expect(reply.status == 202 && reply.object["status"] as? String == "scheduled")
        let listed = try await first.api.get("/v1/scheduled").object["scheduled"] as? [[String: Any]] ?? []
        // Listed until its instant (a machine loaded enough may already have passed it, and shown it).
        #expect(
            (listed.map { $0["id"] as? String } == ["at-four"] && listed.first?["text"] as? String == "LATER") || Date() >= instant,
            "\(listed)")
        // Not in a slot before its instant (a machine loaded enough may already have passed it).
        let inSlot = try await first.api.get("/v1/slots").text.contains("at-four")
        #expect(!inSlot || Date() >= instant, "in a slot before its instant")
        first.process.signal(SIGKILL)
        _ = await first.process.wait()

        let second = try await FlapdProcess.start(stateDirectory: first.stateDirectory)
        teardown { await second.stop() }
        let afterRestart = try await Self.receiptStatus(second, "at-four")
        #expect(afterRestart == "scheduled" || Date() >= instant, "\(afterRestart ?? "no receipt") before its instant")
        var status: String?
        _ = try await eventually(every: .milliseconds(100)) {
            status = try await Self.receiptStatus(second, "at-four")
            // Not shown before its instant.
            if status != "scheduled" && status != "displayed" {
                #expect(Date() >= instant.addingTimeInterval(-0.05), "released early: \(status ?? "?")")
            }
            return status == "displayed"
        }
        #expect(status == "displayed")
        #expect(try await second.api.get("/v1/board").text.contains("\"at-four\""))
        // Shown once: one plan to it, one rest on it.
        #expect(second.process.stderr.components(separatedBy: "message=at-four").count - 1 <= 2)
        #expect(try await second.api.get("/v1/scheduled").object["scheduled"] as? [Any] != nil)
    }

    @Test func aWaitingMessageIsCancelledFromFlapctlAndNeverShown() async throws {
        let flapd = try await InProcessFlapd.start()
        teardown { await flapd.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey]
        let sent = try await ProcessRunner.run(
            flapctl, ["send", "--at", Self.stamp(Date().addingTimeInterval(3600)), "--sender", "kitchen", "--id", "tea", "Tea at four"] + connection)
        #expect(sent.status == 0 && sent.stdoutText.hasPrefix("tea (scheduled for"))
        let listed = try await ProcessRunner.run(flapctl, ["scheduled"] + connection)
        #expect(listed.stdoutText.contains("tea") && listed.stdoutText.contains("kitchen") && listed.stdoutText.contains("Tea at four"))
        // The status says which rule decides whether the clock can be trusted, and what waits on it.
        let time = try await flapd.api.get("/v1/status").object["time"] as? [String: Any] ?? [:]
        #expect(time["scheduled"] as? Int == 1 && time["nextScheduled"] is String && time["trusted"] as? Bool == true)
        #expect(["lastSeen", "kernel", "timesyncd"].contains(time["rule"] as? String ?? "none"))
        let cancelled = try await ProcessRunner.run(flapctl, ["scheduled", "cancel", "tea"] + connection)
        #expect(cancelled.status == 0 && cancelled.stdoutText.contains("tea cancelled"))
        #expect(try await Self.receiptStatus(flapd, "tea") == "cancelled")
        #expect(try await ProcessRunner.run(flapctl, ["scheduled"] + connection).stdoutText.contains("nothing scheduled"))
        // Cancelling again, or a message already accepted: refused with the reason.
        let now = try await flapd.api.post("/v1/messages", json: ["id": "now", "text": "NOW"])
        #expect(now.status == 202)
        let conflict = try await flapd.api.request("DELETE", "/v1/messages/now")
        #expect(conflict.status == 409 && conflict.error.contains("still waiting"))
        #expect(try await flapd.api.request("DELETE", "/v1/messages/unknown").status == 404)
        // Bad times are refused naming the field.
        let bad = try await flapd.api.post("/v1/messages", json: ["text": "X", "notBefore": "tonight"])
        #expect(bad.status == 400 && bad.text.contains("notBefore"))
        let wrongAt = try await ProcessRunner.run(flapctl, ["send", "--at", "25:00", "X"] + connection)
        #expect(wrongAt.status == 2 && wrongAt.stderrText.contains("--at"))
    }
}
