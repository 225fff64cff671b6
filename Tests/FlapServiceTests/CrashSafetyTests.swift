import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd killed with SIGKILL in the middle of a burst: nothing acknowledged is lost, nothing
/// is shown twice, each sender's newest message holds its slot.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct CrashSafetyTests {
    actor Ledger {
        var acknowledged: Set<String> = []
        var unacknowledged: [String: String] = [:]  // id → body
        func ack(_ id: String) { acknowledged.insert(id); unacknowledged[id] = nil }
        func fail(_ id: String, _ body: String) { unacknowledged[id] = body }
        var count: Int { acknowledged.count }
    }

    static let senders = 5
    static let perSender = 200

    static func body(sender: Int, index: Int, base: Date) -> (id: String, json: String) {
        let id = "s\(sender)-\(index)"
        let created = ISO8601DateFormatter().string(from: base.addingTimeInterval(Double(index)))
        return (id, #"{"id": "\#(id)", "sender": {"id": "sender\#(sender)"}, "text": "message \#(index)", "createdAt": "\#(created)"}"#)
    }

    @Test func aKilledFlapdLosesNoAcknowledgedMessageAndShowsNoneTwice() async throws {
        let first = try await FlapdProcess.start(arguments: ["--rate-limit", "0"])
        let ledger = Ledger()
        let base = Date()
        let api = first.api
        // Each sender sends in order; the senders run side by side.
        await withTaskGroup(of: Void.self) { group in
            for s in 0..<Self.senders {
                group.addTask {
                    var alive = true
                    for i in 0..<Self.perSender {
                        let (id, json) = Self.body(sender: s, index: i, base: base)
                        guard alive else { await ledger.fail(id, json); continue }
                        do {
                            let reply = try await api.postJSON("/v1/messages", json)
                            if reply.status == 202 || reply.status == 200 { await ledger.ack(id) } else { await ledger.fail(id, json) }
                        } catch {
                            alive = false
                            await ledger.fail(id, json)
                        }
                    }
                }
            }
            group.addTask {
                _ = try? await eventually(patience: .seconds(90), every: .milliseconds(1)) { await ledger.count >= 400 }
                first.process.signal(SIGKILL)
            }
        }
        #expect(await first.process.wait() == 128 + SIGKILL)
        let acknowledgedBeforeKill = await ledger.acknowledged
        #expect(acknowledgedBeforeKill.count >= 400)
        #expect(acknowledgedBeforeKill.count < Self.senders * Self.perSender, "the kill came too late to test anything")

        let second = try await FlapdProcess.start(stateDirectory: first.stateDirectory, arguments: ["--rate-limit", "0"])
        teardown { await second.stop() }
        // Every acknowledged message is there.
        for id in acknowledgedBeforeKill {
            #expect(try await second.api.get("/v1/receipts/\(id)").status == 200, "lost \(id)")
        }
        // The senders retry what was not acknowledged: accepted now, or recognised as already committed.
        for (id, json) in await ledger.unacknowledged {
            let reply = try await second.api.postJSON("/v1/messages", json)
            #expect(reply.status == 202 || reply.status == 200, "\(id): \(reply.status)")
        }
        // Each sender's slot holds its newest message: per-sender order survived.
        let slots = try await second.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(Set(slots.compactMap { $0["id"] as? String }) == Set((0..<Self.senders).map { "s\($0)-\(Self.perSender - 1)" }))
        // Nothing was shown twice, across both runs: checked once the panel rests on what it
        // chose, when a second showing would have begun.
        #expect(try await eventually(every: .milliseconds(50)) { try await Self.idle(second) }, "the panel never came to rest")
        let logs = first.process.stderr + second.process.stderr
        let shown = timesShown(inLog: logs)
        #expect(shown.values.allSatisfy { $0 == 1 }, "shown more than once: \(shown.filter { $0.value > 1 })")
    }

    /// The first panel is still, showing a message whose receipt says it was displayed: what it
    /// chose to show, it has shown.
    static func idle(_ flapd: FlapdProcess) async throws -> Bool {
        let panel = (try await flapd.api.get("/v1/status").object["panels"] as? [[String: Any]])?.first
        guard panel?["moving"] as? Bool == false, let message = panel?["message"] as? String else { return false }
        return try await flapd.api.get("/v1/receipts/\(message)").object["status"] as? String == "displayed"
    }
}
