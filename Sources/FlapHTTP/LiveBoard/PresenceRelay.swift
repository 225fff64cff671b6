import FlapPresence

/// Tells each watching page the household's presence as its person sees it, after every change,
/// and hands everyone's public view (those who hide left out) to `publish` (MQTT).
public struct PresenceRelay: Sendable {
    let book: PresenceBook
    let live: LiveBoards
    let publish: @Sendable ([PersonPresence]) async -> Void

    public init(book: PresenceBook, live: LiveBoards, publish: @escaping @Sendable ([PersonPresence]) async -> Void = { _ in }) {
        self.book = book
        self.live = live
        self.publish = publish
    }

    /// Until the task is cancelled.
    public func run() async {
        await publish(await book.people(for: nil))
        for await _ in book.changes() {
            for person in await book.watching() {
                await live.tell(LiveBoards.watcherTag(person: person), await PresenceView(book: book, for: person).serverSentEvent)
            }
            await publish(await book.people(for: nil))
        }
    }
}
