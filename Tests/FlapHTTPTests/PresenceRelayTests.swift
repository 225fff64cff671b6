import FlapHTTP
import FlapMembers
import FlapPresence
import Foundation
import Testing

/// The relay tells a page only what its person sees change: a hidden person's coming, writing
/// and leaving reach nobody else, not even as an unchanged event.
@Suite(.timeLimit(.minutes(3))) struct PresenceRelayTests {
    @Test func aHiddenPersonsComingWritingAndLeavingTellTheOthersNothing() async throws {
        let access = AccessStore(path: nil)
        let (alice, _) = try await access.addMember(name: "Alice", sender: "alice")
        let book = PresenceBook(access: access, path: nil)
        let live = LiveBoards()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let relay = Task { await PresenceRelay(book: book, live: live, publish: { _ in start.yield() }).run(on: ContinuousClock(), gap: .zero) }
        defer { relay.cancel() }
        // Its first publishing: it watches the book from then on.
        for await _ in started { break }
        // The owner's page watches.
        var owners = await live.watch(whose: LiveBoards.watcherTag(person: Person.owner)).makeAsyncIterator()
        _ = await book.opened(Person.owner)
        // Alice hides: the owner sees her go from the list.
        try await book.update(.member(alice.id), PresenceChange(showMe: false))
        var event = try #require(await owners.next())
        while event.contains("\"Alice\"") { event = try #require(await owners.next()) }
        // Alice comes, writes, stops and leaves: nothing the owner sees changes.
        let stream = await book.opened(.member(alice.id))
        try await book.update(.member(alice.id), PresenceChange(writing: true))
        try await book.update(.member(alice.id), PresenceChange(writing: false))
        await book.closed(.member(alice.id), stream: stream)
        // Then the owner writes (an ordering marker): the next event the owner hears is that one.
        try await book.update(Person.owner, PresenceChange(writing: true))
        let next = try #require(await owners.next())
        #expect(next.contains("\"writing\":true") && !next.contains("Alice"), "\(next)")
    }
}
