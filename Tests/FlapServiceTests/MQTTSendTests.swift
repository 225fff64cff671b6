import Foundation
import TestSupport
import Testing

/// `flapctl send --mqtt`: one message to several displays, each display's receipt gathered.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MQTTSendTests {
    @Test func sendToSeveralDisplaysAndAGroupGatheringReceipts() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let a = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", url, "--device-id", "a", "--group", "floor"])
        let b = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", url, "--device-id", "b", "--group", "floor"])
        teardown {
            await a.stop(); await b.stop()
        }
        for device in ["a", "b"] { try await MQTTServiceTests.online(broker, device) }
        let flapctl = ProcessRunner.builtProduct("flapctl")

        let both = try await ProcessRunner.run(flapctl, ["send", "--mqtt", url, "--to", "a,b", "--id", "hello-all", "--sender", "me", "HELLO"])
        #expect(both.status == 0, "\(both.stderrText)")
        #expect(both.stdoutText == "hello-all\n  a: accepted\n  b: accepted\ndelivered 2/2\n")

        let partly = try await ProcessRunner.run(flapctl, ["send", "--mqtt", url, "--to", "a,b,ghost", "--timeout", "2", "--id", "p1", "X"])
        #expect(partly.status == 1)
        #expect(partly.stdoutText.contains("  ghost: no answer within 2 s"))
        #expect(partly.stdoutText.hasSuffix("delivered 2/3\n"))

        let group = try await ProcessRunner.run(flapctl, ["send", "--mqtt", url, "--group", "floor", "--timeout", "2", "--id", "g1", "FLOOR"])
        #expect(group.status == 0, "\(group.stderrText)")
        #expect(group.stdoutText.hasSuffix("delivered to 2 display(s) of group floor\n"))

        let rejected = try await ProcessRunner.run(flapctl, ["send", "--mqtt", url, "--to", "a", "--timeout", "3", "--id", "r1", "a{99}b"])
        #expect(rejected.status == 1)
        #expect(rejected.stdoutText.contains("a: rejected: text: line 1, position 3: unsupported character code: 99"), "\(rejected.stdoutText)")

        let tooMany = try await ProcessRunner.run(flapctl, ["send", "--mqtt", url, "--to", (1...11).map { "d\($0)" }.joined(separator: ","), "X"])
        #expect(tooMany.status == 2)

        // A retained slot reaches a display that was not there when it was sent.
        let slot = try await ProcessRunner.run(
            flapctl, ["send", "--mqtt", url, "--to", "later", "--slot", "--sender", "kitchen", "--timeout", "1", "--id", "s1", "SOUP"])
        #expect(slot.status == 1)  // no display "later" yet
        let later = try await InProcessFlapd.start(arguments: ["--no-sound", "--mqtt", url, "--device-id", "later"])
        teardown { await later.stop() }
        _ = try await eventually(every: .milliseconds(10)) { try await later.api.get("/v1/receipts/s1").status == 200 }
        #expect(try await later.api.get("/v1/receipts/s1").status == 200)
    }
}
