import Foundation
import Synchronization
import TestSupport
import Testing

@testable import FlapMembers

/// Members, their links, keys and sessions, on an injected clock and a real file.
@Suite struct AccessStoreTests {
    final class Clock: Sendable {
        let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    let folder: String
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    var path: String { folder + "/access.json" }

    func store(_ clock: Clock, log: LogLines = LogLines()) -> AccessStore {
        AccessStore(path: path, now: { clock.now }, logger: log.logger)
    }

    @Test func anInvitationSignsAMemberInOnceWithinADay() async throws {
        let clock = Clock()
        let store = store(clock)
        let (mum, invitation) = try await store.addMember(name: " Mum ", sender: "mum")
        #expect(mum.name == "Mum" && mum.sender == "mum" && invitation.memberID == mum.id)
        #expect(invitation.expiresAt == clock.now.addingTimeInterval(86_400))
        guard case .signedIn(.member(let member), let session, _) = await store.redeem(invitation.token, from: "192.168.1.23") else {
            Issue.record("the invitation did not sign Mum in"); return
        }
        #expect(member == mum)
        #expect(await store.redeem(invitation.token, from: "192.168.1.23") == .refused, "used once")
        #expect(await store.session(session)?.principal == .member(mum))

        let late = try #require(await store.newInvitation(for: mum.id))
        clock.advance(86_401)
        #expect(await store.redeem(late.token, from: "192.168.1.23") == .refused, "a day and a second later")
    }

    @Test func aPairingLinkSignsTheOwnerInWithinTenMinutes() async throws {
        let clock = Clock()
        let store = store(clock)
        let pairing = await store.pairing()
        #expect(pairing.memberID == nil && pairing.expiresAt == clock.now.addingTimeInterval(600))
        guard case .signedIn(.owner, _, _) = await store.redeem(pairing.token, from: "192.168.1.23") else { Issue.record("not the owner"); return }
        let late = await store.pairing()
        clock.advance(601)
        #expect(await store.redeem(late.token, from: "192.168.1.23") == .refused)
    }

    @Test func sessionsLastNinetyDaysSinceTheirLastUseAndSurviveARestart() async throws {
        let clock = Clock()
        let (token, _) = await store(clock).openSession(for: .owner)
        clock.advance(80 * 86_400)
        #expect(await store(clock).session(token)?.principal == .owner, "a restart, 80 days on: used, so it slides")
        clock.advance(80 * 86_400)
        #expect(await store(clock).session(token)?.principal == .owner, "80 days after its last use")
        clock.advance(91 * 86_400)
        #expect(await store(clock).session(token) == nil, "91 days unused")
    }

    @Test func removingAMemberStopsTheirSessionsKeysAndLinksAtOnce() async throws {
        let clock = Clock()
        let store = store(clock)
        let (kid, invitation) = try await store.addMember(name: "Sam", sender: "sam")
        guard case .signedIn(_, let session, _) = await store.redeem(invitation.token, from: "192.168.1.23") else {
            Issue.record("not signed in"); return
        }
        let key = try #require(await store.newKey(for: kid.id))
        let pending = try #require(await store.newInvitation(for: kid.id))
        #expect(await store.member(withKey: key) == kid)
        #expect(await store.removeMember(kid.id) != nil)
        #expect(await store.session(session) == nil)
        #expect(await store.member(withKey: key) == nil)
        #expect(await store.redeem(pending.token, from: "192.168.1.23") == .refused)
        #expect(await store.removeMember(kid.id) == nil)
        #expect(await store.removal(endingSession: session)?.member == kid, "their phone is told why")
    }

    /// A removal is taken back within ten minutes, after a restart too: the member, their sessions
    /// and keys work again. Later it is refused as too late; a sender given to someone else
    /// meanwhile is refused naming who has it. Their phone is told why for as long as a session lasts.
    @Test func aRemovalIsTakenBackWithinTenMinutesAndNotLater() async throws {
        let clock = Clock()
        let store = store(clock)
        let (mum, invitation) = try await store.addMember(name: "Mum", sender: "mum")
        guard case .signedIn(_, let session, _) = await store.redeem(invitation.token, from: "192.168.1.23") else {
            Issue.record("not signed in"); return
        }
        let key = try #require(await store.newKey(for: mum.id))
        let removal = try #require(await store.removeMember(mum.id, messageCleared: true))
        #expect(removal.messageCleared && removal.undoUntil == clock.now + 600)
        clock.advance(599)
        let restarted = self.store(clock)
        #expect(await restarted.recentRemovals().map(\.member) == [mum])
        #expect(try await restarted.undoRemoval(mum.id) == mum)
        #expect(await restarted.session(session)?.principal == .member(mum))
        #expect(await restarted.member(withKey: key) == mum)
        #expect(await restarted.recentRemovals().isEmpty)
        #expect(await restarted.removal(endingSession: session) == nil)

        _ = await restarted.removeMember(mum.id)
        clock.advance(601)
        await #expect(throws: UndoRefusal.tooLate(mum)) { try await restarted.undoRemoval(mum.id) }
        #expect(await restarted.recentRemovals().isEmpty)
        clock.advance(80 * 86_400)
        #expect(await restarted.removal(endingSession: session)?.member == mum)
        clock.advance(11 * 86_400)
        #expect(await restarted.removal(endingSession: session) == nil, "forgotten when the session would have ended")

        let (dad, _) = try await restarted.addMember(name: "Dad", sender: "dad")
        _ = await restarted.removeMember(dad.id)
        _ = try await restarted.addMember(name: "Grandad", sender: "dad")
        await #expect(throws: UndoRefusal.senderTaken(dad, by: "Grandad")) { try await restarted.undoRemoval(dad.id) }
        await #expect(throws: UndoRefusal.unknown("m-nobody")) { try await restarted.undoRemoval("m-nobody") }
    }

    @Test func theFileHoldsDigestsOnlyAndIsPrivate() async throws {
        let clock = Clock()
        let store = store(clock)
        let (dad, invitation) = try await store.addMember(name: "Dad", sender: "dad")
        let key = try #require(await store.newKey(for: dad.id))
        let (session, _) = await store.openSession(for: .member(dad))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for secret in [invitation.token, key, session] { #expect(!text.contains(secret)) }
        #expect(text.contains(AccessToken.digest(key)))
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        #expect(await self.store(clock).member(withKey: key) == dad, "read back after a restart")
    }

    @Test func wrongLinksAreAnsweredTwentyTimesInTenMinutesThenRefusedUnread() async throws {
        let clock = Clock()
        let store = store(clock)
        let (_, invitation) = try await store.addMember(name: "Mum", sender: "mum")
        for _ in 0..<20 { #expect(await store.redeem(AccessToken.random(), from: "203.0.113.9") == .refused) }
        guard case .tooManyGuesses(let wait) = await store.redeem(invitation.token, from: "203.0.113.9") else {
            Issue.record("the 21st was read"); return
        }
        #expect(wait == 600)
        clock.advance(600)
        guard case .signedIn = await store.redeem(invitation.token, from: "203.0.113.9") else {
            Issue.record("still refused after 10 minutes"); return
        }
    }

    /// 20 wrong guesses from anyone stopped every pairing for ten minutes: they are counted per
    /// client, so Mum's phone redeems her link while the stranger waits.
    @Test func aStrangersGuessesSlowOnlyTheStranger() async throws {
        let store = store(Clock())
        let (_, invitation) = try await store.addMember(name: "Mum", sender: "mum")
        for _ in 0..<20 { #expect(await store.redeem(AccessToken.random(), from: "2001:db8:1:2::17") == .refused) }
        // The same /64 is the same client, whichever address it takes.
        guard case .tooManyGuesses = await store.redeem(AccessToken.random(), from: "2001:db8:1:2:aaaa::99") else {
            Issue.record("a new address in the /64 was read"); return
        }
        guard case .signedIn = await store.redeem(invitation.token, from: "192.168.1.23") else { Issue.record("Mum was refused"); return }
        #expect(ClientNetwork.key("::ffff:192.168.1.23") == "192.168.1.23")
    }

    @Test func membersNeedANameAndASenderOfTheirOwn() async throws {
        let store = store(Clock())
        _ = try await store.addMember(name: "Mum", sender: "mum")
        await #expect(
            throws: MemberProblem(field: "sender", problem: "mum is already Mum's; each member has a sender of their own", isConflict: true)
        ) {
            try await store.addMember(name: "Other", sender: "mum")
        }
        await #expect(throws: MemberProblem.self) { try await store.addMember(name: "", sender: "x") }
        await #expect(throws: MemberProblem(field: "sender", problem: "\"/\" cannot be in a sender id")) {
            try await store.addMember(name: "Slash", sender: "a/b")
        }
    }

    @Test func theOwnersSessionsOfAnEarlierFlapdAreKeptAsDigests() async throws {
        let clock = Clock()
        let old = AccessToken.random()
        let legacy = folder + "/sessions.json"
        try #"{"\#(old)": \#(clock.now.timeIntervalSince1970 + 3600), "not-a-session": 1e12}"#.write(
            toFile: legacy, atomically: true, encoding: .utf8)
        let store = AccessStore(path: path, legacySessions: legacy, now: { clock.now })
        #expect(await store.session(old)?.principal == .owner)
        #expect(await store.session("not-a-session") == nil)
        #expect(!FileManager.default.fileExists(atPath: legacy))
        #expect(try !String(contentsOfFile: path, encoding: .utf8).contains(old))
    }

    @Test func aDamagedFileIsSaidOnce() async throws {
        try "{ not json".write(toFile: path, atomically: true, encoding: .utf8)
        let log = LogLines()
        let store = store(Clock(), log: log)
        #expect(await store.members().isEmpty)
        #expect(log.all.filter { $0.contains("members file is damaged") }.count == 1)
    }
}
