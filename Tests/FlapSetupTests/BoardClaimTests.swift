import FlapClocks
import FlapSetup
import Foundation
import Logging
import TestSupport
import Testing

@Suite(.cleansUp) struct BoardClaimTests {
    func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        teardown { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    func claim(
        in directory: String, owned: Bool = false, earlierVersion: Bool = false, clock: ManualClock = ManualClock()
    ) throws -> BoardClaim<ManualClock> {
        try BoardClaim(
            stateDirectory: directory, owned: owned, earlierVersion: earlierVersion, clock: clock, now: { Date() },
            logger: Logger(label: "claim"))
    }

    /// A wrong code from `code`: its first digit moved on by one.
    func wrong(_ code: SetupCode) -> String {
        let first = code.digits.first?.wholeNumberValue ?? 0
        return "\((first + 1) % 10)" + code.digits.dropFirst()
    }

    @Test func theRightCodeClaimsTheBoardOnceAndTheClaimIsKept() async throws {
        let state = try directory()
        let board = try claim(in: state)
        let code = try #require(try await board.code())
        // Kept for `sudo flapctl setup-code`, readable by its owner only.
        #expect(try String(contentsOfFile: state + "/setup-code", encoding: .utf8) == "\(code)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: state + "/setup-code")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try await board.claim("\(code)", from: "192.168.1.20") == .claimed)
        #expect(await board.isClaimed)
        #expect(try await board.code() == nil)
        #expect(!FileManager.default.fileExists(atPath: state + "/setup-code"), "no code left behind")
        #expect(try await board.claim("\(code)", from: "192.168.1.20") == .alreadyClaimed)
        // flapd started again: still claimed, and no code shown.
        let again = try claim(in: state)
        #expect(await again.isClaimed)
        #expect(try await again.code() == nil)
    }

    @Test func fiveWrongCodesAndTheBoardShowsANewOne() async throws {
        let board = try claim(in: try directory())
        let first = try #require(try await board.code())
        for left in (0..<5).reversed() {
            #expect(try await board.claim(wrong(first), from: "192.168.1.\(20 + left)") == .wrong(triesLeft: left))
        }
        let second = try #require(try await board.code())
        #expect(second != first)
        #expect(try await board.claim("\(first)", from: "192.168.1.30") == .wrong(triesLeft: 4), "the old code is over")
        #expect(try await board.claim("not a code", from: "192.168.1.30") == .malformed)
        #expect(try await board.claim(second.digits, from: "192.168.1.30") == .claimed)
    }

    @Test func oneClientTriesAtMostTwentyWrongCodesInTenMinutes() async throws {
        let board = try claim(in: try directory())
        for _ in 0..<20 {
            let code = try #require(try await board.code())
            guard case .wrong = try await board.claim(wrong(code), from: "203.0.113.9") else {
                Issue.record("a wrong code was not refused as wrong")
                return
            }
        }
        let code = try #require(try await board.code())
        guard case .tooManyTries(let wait) = try await board.claim("\(code)", from: "203.0.113.9") else {
            Issue.record("the twenty-first try went ahead")
            return
        }
        #expect(wait > 0 && wait <= 600)
        #expect(try await board.claim("\(code)", from: "192.168.1.20") == .claimed, "another client is not held back")
    }

    @Test func aCodeLastsFifteenMinutesThenTheBoardShowsANewOne() async throws {
        let clock = ManualClock()
        let board = try claim(in: try directory(), clock: clock)
        let first = try #require(try await board.code())
        var codes = board.codes().makeAsyncIterator()
        let running = Task { await board.run() }
        teardown {
            running.cancel()
            await running.value
        }
        await clock.sleepers(atLeast: 1)
        await clock.advance(by: .seconds(14 * 60))
        #expect(try await board.code() == first)
        await clock.advance(by: .seconds(60))
        let shown = try #require(await codes.next())
        #expect(shown != nil && shown != first)
        #expect(try await board.code() == shown)
        #expect(try await board.claim("\(first)", from: "192.168.1.20") == .wrong(triesLeft: 4))
    }

    @Test func aBoardWithAnOwnerAlreadyShowsNoCode() async throws {
        let configured = try claim(in: try directory(), owned: true)
        #expect(await configured.isClaimed)
        // An earlier version's state directory: its owner reached it by its key.
        let upgraded = try claim(in: try directory(), earlierVersion: true)
        #expect(try await upgraded.code() == nil)
        // A phone paired with `flapctl pair` before anyone typed the code.
        let state = try directory()
        let paired = try claim(in: state)
        try await paired.owned()
        #expect(try await paired.code() == nil)
        #expect(await (try claim(in: state)).isClaimed)
    }

    @Test func anOwnerHandsTheBoardOverWithANewCode() async throws {
        let state = try directory()
        let board = try claim(in: state)
        #expect(try await board.claim(try #require(try await board.code()).digits, from: "192.168.1.20") == .claimed)
        let handed = try await board.newCode()
        #expect(try await board.code() == handed)
        // The owner's key and phones go on working meanwhile, and do not call the handover off.
        try await board.owned()
        #expect(try await board.code() == handed)
        #expect(try String(contentsOfFile: state + "/setup-code", encoding: .utf8) == "\(handed)\n")
        #expect(try await board.claim(handed.digits, from: "192.168.1.40") == .claimed)
    }

    @Test func aRecordOverItsBudgetIsNotReadAndKeepsTheBoardClosed() async throws {
        let state = try directory()
        try String(repeating: " ", count: 5_000).appending("{\"claimed\": false}").write(
            toFile: state + "/setup.json", atomically: true, encoding: .utf8)
        let board = try claim(in: state)
        #expect(await board.isClaimed)
    }

    @Test func aDamagedRecordKeepsTheBoardClosed() async throws {
        let state = try directory()
        try "{ not json".write(toFile: state + "/setup.json", atomically: true, encoding: .utf8)
        let board = try claim(in: state)
        #expect(await board.isClaimed)
        #expect(try await board.code() == nil)
    }
}
