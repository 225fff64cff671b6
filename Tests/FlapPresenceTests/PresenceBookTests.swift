import FlapClocks
import FlapMembers
import FlapPresence
import Foundation
import TestSupport
import Testing

/// Presence on a manual clock: a ping's five minutes and writing's five seconds end when the
/// clock says, the change is told when they do, and sightings and settings outlive a restart.
@Suite(.cleansUp) struct PresenceBookTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    struct Household {
        let clock = ManualClock()
        let access: AccessStore
        let book: PresenceBook
        let mum: Member
        let path: String

        init(path: String? = nil) async throws {
            let clock = clock
            let now: @Sendable () -> Date = { PresenceBookTests.start.addingTimeInterval(clock.now.offset / .seconds(1)) }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.path = path ?? folder.appendingPathComponent("presence.json").path
            access = AccessStore(path: nil, now: now)
            mum = try await access.addMember(name: "Mum", sender: "mum").0
            book = PresenceBook(access: access, path: self.path, now: now)
        }

        var now: Date { PresenceBookTests.start.addingTimeInterval(clock.now.offset / .seconds(1)) }

        /// Mum as the owner sees her.
        func mumSeen(by asker: Person? = .owner) async -> PersonPresence? {
            await book.people(for: asker).first { $0.sender == "mum" }
        }
    }

    @Test func aPingCountsForFiveMinutesAndItsEndIsTold() async throws {
        let home = try await Household()
        let book = home.book
        let runner = Task { await book.run(on: home.clock) }
        teardown { runner.cancel() }
        var changes = book.changes().makeAsyncIterator()

        try await book.update(.member(home.mum.id), PresenceChange(here: true))
        _ = await changes.next()
        #expect(await home.mumSeen()?.here == true)
        await home.clock.sleeper(after: home.clock.now.advanced(by: .seconds(299)))
        await home.clock.advance(by: .seconds(299))
        #expect(await home.mumSeen()?.here == true)
        await home.clock.advance(by: .seconds(1))
        _ = await changes.next()
        let mum = try #require(await home.mumSeen())
        #expect(!mum.here && !mum.writing)
        #expect(mum.lastSeen == Self.start, "last seen when she pinged, not when the ping lapsed")
    }

    @Test func aPageIsHereWhileItsStreamIsOpen() async throws {
        let home = try await Household()
        let (phone, laptop) = (await home.book.opened(.member(home.mum.id)), await home.book.opened(.member(home.mum.id)))
        await home.clock.advance(by: .seconds(3600))
        #expect(await home.mumSeen()?.here == true, "an open stream needs no ping")
        await home.book.closed(.member(home.mum.id), stream: phone)
        #expect(await home.mumSeen()?.here == true, "her laptop's page is still open")
        await home.clock.advance(by: .seconds(60))
        await home.book.closed(.member(home.mum.id), stream: laptop)
        let mum = try #require(await home.mumSeen())
        #expect(!mum.here && mum.lastSeen == Self.start.addingTimeInterval(3660))
        await home.book.closed(.member(home.mum.id), stream: laptop)
        #expect(await home.mumSeen()?.lastSeen == Self.start.addingTimeInterval(3660), "a stream let go twice is nothing")
    }

    @Test func writingEndsFiveSecondsAfterTheLastKeystrokeOnSendOrWithTheStream() async throws {
        let home = try await Household()
        let book = home.book
        let runner = Task { await book.run(on: home.clock) }
        teardown { runner.cancel() }
        var changes = book.changes().makeAsyncIterator()
        let stream = await book.opened(.member(home.mum.id))
        _ = await changes.next()

        try await book.update(.member(home.mum.id), PresenceChange(writing: true))
        _ = await changes.next()
        #expect(await home.mumSeen()?.writing == true)
        await home.clock.sleeper(after: home.clock.now.advanced(by: .seconds(4)))
        await home.clock.advance(by: .seconds(3))
        try await book.update(.member(home.mum.id), PresenceChange(writing: true))
        await home.clock.advance(by: .seconds(4))
        #expect(await home.mumSeen()?.writing == true, "renewed 4 s ago")
        await home.clock.advance(by: .seconds(1))
        _ = await changes.next()
        #expect(await home.mumSeen()?.writing == false)
        #expect(await home.mumSeen()?.here == true)

        try await book.update(.member(home.mum.id), PresenceChange(writing: true))
        try await book.update(.member(home.mum.id), PresenceChange(writing: false))
        #expect(await home.mumSeen()?.writing == false, "sent")
        try await book.update(.member(home.mum.id), PresenceChange(writing: true))
        await book.closed(.member(home.mum.id), stream: stream)
        try await book.update(.member(home.mum.id), PresenceChange(here: false))
        let mum = try #require(await home.mumSeen())
        #expect(!mum.writing && !mum.here, "her page closed")
    }

    @Test func someoneWhoHidesIsNotSeenButSeesThemselves() async throws {
        let home = try await Household()
        _ = await home.book.opened(.member(home.mum.id))
        try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false, writing: true))
        #expect(await home.mumSeen() == nil, "the owner sees nothing of her")
        #expect(await home.mumSeen(by: nil) == nil, "nor does MQTT")
        let own = try #require(await home.mumSeen(by: .member(home.mum.id)))
        #expect(own.you == true && own.here && own.writing)
        #expect(await home.book.people(for: .member(home.mum.id)).map(\.name) == ["Owner", "Mum"], "she sees the owner")
        #expect(await !home.book.showsMe(.member(home.mum.id)))
    }

    @Test func sightingsAndSettingsOutliveARestart() async throws {
        let home = try await Household()
        _ = await home.book.opened(Person.owner)
        try await home.book.update(Person.owner, PresenceChange(name: "Dad"))
        try await home.book.update(.member(home.mum.id), PresenceChange(here: true))
        try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false))
        await home.clock.advance(by: .seconds(90))
        await home.book.close()

        let again = PresenceBook(access: home.access, path: home.path, now: { Self.start.addingTimeInterval(7200) })
        let people = await again.people(for: .member(home.mum.id))
        #expect(people.map(\.name) == ["Dad", "Mum"])
        #expect(people.allSatisfy { !$0.here })
        #expect(people[0].lastSeen == Self.start.addingTimeInterval(90), "here when flapd stopped")
        #expect(await !again.showsMe(.member(home.mum.id)))
        #expect(await again.people(for: Person.owner).map(\.name) == ["Dad"])
    }

    @Test func aMemberCannotNameThemselvesAndANameIsChecked() async throws {
        let home = try await Household()
        await #expect(throws: PresenceProblem.self) { try await home.book.update(.member(home.mum.id), PresenceChange(name: "Queen")) }
        await #expect(throws: PresenceProblem.self) { try await home.book.update(Person.owner, PresenceChange(name: "  ")) }
        await #expect(throws: PresenceProblem.self) { try await home.book.update(Person.owner, PresenceChange(name: "D\u{200B}ad")) }
        #expect(await home.book.people(for: nil).map(\.name) == ["Owner", "Mum"])
    }

    @Test func namesInTheHouseholdAreOneEachAsAPersonReadsThem() async throws {
        let home = try await Household()
        for taken in ["Mum", "MUM", "Ｍｕｍ", "\u{41C}um"] {
            await #expect(throws: PresenceProblem(field: "name", problem: "Mum is a member's name; choose another"), "\(taken)") {
                try await home.book.update(Person.owner, PresenceChange(name: taken))
            }
        }
        try await home.book.update(Person.owner, PresenceChange(name: "Dad"))
        // A member is not given the owner's name either.
        await #expect(throws: MemberProblem.self) { try await home.access.addMember(name: "dad", sender: "dad", othersNames: ["Dad"]) }
        await #expect(throws: MemberProblem.self) { try await home.access.addMember(name: "MUM", sender: "mum2") }
    }

    @Test func streamNumbersTellNothingOfOthersStreams() async throws {
        let home = try await Household()
        var numbers: [Int] = []
        for _ in 0..<20 { numbers.append(await home.book.opened(Person.owner)) }
        let mine = await home.book.opened(.member(home.mum.id))
        #expect(Set(numbers + [mine]).count == 21)
        #expect(numbers.sorted() != numbers || numbers.first! > 1_000_000, "drawn at random, not counted: \(numbers)")
        #expect(mine > 0 && mine <= (1 << 53) - 1)
    }

    @Test func settingChangesAreLimitedPerPerson() async throws {
        let home = try await Household()
        for i in 0..<PresenceBook.settingChangesAMinute {
            try await home.book.update(.member(home.mum.id), PresenceChange(showMe: i % 2 == 1))
        }
        await #expect(throws: PresenceProblem.self) { try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false)) }
        // The owner's are their own; a minute later hers come again. Pings are never limited.
        try await home.book.update(Person.owner, PresenceChange(showMe: false))
        try await home.book.update(.member(home.mum.id), PresenceChange(here: true))
        await home.clock.advance(by: .seconds(60))
        try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false))
    }

    @Test func aRemovedMemberIsForgottenAndComesBackAfresh() async throws {
        let home = try await Household()
        // The book follows the household itself: no one tells it of the removal.
        let book = home.book
        let runner = Task { await book.run(on: home.clock) }
        teardown { runner.cancel() }
        try await home.book.update(.member(home.mum.id), PresenceChange(here: true))
        try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false))
        var changes = home.book.changes().makeAsyncIterator()
        _ = await home.access.removeMember(home.mum.id, messageCleared: false)
        _ = await changes.next()
        #expect(try !String(contentsOfFile: home.path, encoding: .utf8).contains(home.mum.id), "her entry is gone from the file")
        _ = try await home.access.undoRemoval(home.mum.id)
        _ = await changes.next()
        let back = try #require(await home.mumSeen())
        #expect(!back.here && back.lastSeen == nil, "her ping from before the removal does not count")
        #expect(await home.book.showsMe(.member(home.mum.id)))
    }

    @Test func comingsAndGoingsAreWrittenAtMostEveryTenSeconds() async throws {
        let home = try await Household()
        let running = Task { await home.book.run(on: home.clock) }
        defer { running.cancel() }
        _ = await home.book.opened(Person.owner)  // written: the first sighting
        let first = try Data(contentsOf: URL(fileURLWithPath: home.path))
        for _ in 0..<100 {
            let stream = await home.book.opened(.member(home.mum.id))
            await home.book.closed(.member(home.mum.id), stream: stream)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path)) == first, "a hundred comings and goings wait")
        // Ten seconds on, what waited is written once.
        await home.clock.sleeper(after: home.clock.now.advanced(by: .seconds(9)))
        await home.clock.advance(by: .seconds(10))
        let written = try await eventually(every: .milliseconds(5)) {
            (try? String(contentsOfFile: home.path, encoding: .utf8))?.contains(home.mum.id) == true
        }
        #expect(written)
    }

    @Test func aSettingTheDiskCannotKeepIsInForceAndSaid() async throws {
        let home = try await Household(path: "/proc/no-such-place/presence.json")
        await #expect(throws: (any Error).self) { try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false)) }
        #expect(await home.mumSeen() == nil, "hidden now, though not for a restart")
        try await home.book.update(.member(home.mum.id), PresenceChange(here: true))
    }

    @Test func aWellFormedFileOverItsBudgetIsRefusedUnread() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("presence.json").path
        let kept = #"{"ownerName": "Dad", "people": {}}"#
        // 2.1 MB: over the 256 KiB cap, and valid JSON all the same.
        try (kept + String(repeating: " ", count: 2_100_000)).write(toFile: path, atomically: true, encoding: .utf8)
        let log = LogLines()
        let access = AccessStore(path: nil)
        let book = PresenceBook(access: access, path: path, logger: log.logger)
        #expect(await book.people(for: nil).map(\.name) == ["Owner"], "nothing of it was taken")
        #expect(log.all.count == 1 && log.all[0].contains("larger than 256 KiB"), "\(log.all)")
        try kept.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await PresenceBook(access: access, path: path).people(for: nil).map(\.name) == ["Dad"])
    }

    @Test func aDamagedFileIsSaidAndForgotten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("presence.json").path
        try "{\"people\": [1, 2".write(toFile: path, atomically: true, encoding: .utf8)
        let home = try await Household(path: path)
        #expect(await home.book.people(for: nil).map(\.here) == [false, false])
        try await home.book.update(.member(home.mum.id), PresenceChange(showMe: false))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("hidden"), "written whole again")
    }
}
