import FlapMembers
import FlapPresence

/// Tells each watching page the household's presence as its person sees it, when what that
/// person sees changes, and hands everyone's public view (those who hide left out) to `publish`
/// (MQTT) when it changes. What someone hidden does changes nothing the others see, so it tells
/// them nothing, not even that something happened.
///
/// Changes that come together are told together: after telling, the relay waits `gap` on its
/// clock, and whatever changed meanwhile is told once. A person toggling a setting a hundred
/// times costs each page at most one event a gap.
public struct PresenceRelay: Sendable {
    let book: PresenceBook
    let live: LiveBoards
    let publish: @Sendable ([PersonPresence]) async -> Void

    /// The least time between two rounds of telling.
    public static let gap = Duration.milliseconds(500)

    /// Relays `book`'s changes to the pages through `live`, and to `publish` (MQTT).
    public init(book: PresenceBook, live: LiveBoards, publish: @escaping @Sendable ([PersonPresence]) async -> Void = { _ in }) {
        self.book = book
        self.live = live
        self.publish = publish
    }

    /// Until the task is cancelled, waiting `gap` between rounds on `clock`.
    public func run<C: Clock>(on clock: C, gap: Duration = PresenceRelay.gap) async where C.Duration == Duration {
        // Watched before the first publishing, so no change after it is missed.
        let changes = book.changes()
        var published = Seen(await book.people(for: nil))
        await publish(published.people)
        var told: [Person: Seen] = [:]
        for await _ in changes {
            var still: [Person: Seen] = [:]
            for person in await book.watching() {
                let view = await PresenceView(book: book, for: person)
                let seen = Seen(view.people, showMe: view.showMe)
                still[person] = seen
                guard told[person] != seen else { continue }
                await live.tell(LiveBoards.watcherTag(person: person), view.serverSentEvent)
            }
            told = still
            let everyone = Seen(await book.people(for: nil))
            if everyone != published {
                published = everyone
                await publish(everyone.people)
            }
            try? await clock.sleep(for: gap, tolerance: nil)
        }
    }

    /// What a person sees, as compared between rounds: while someone is here their `lastSeen`
    /// is now, which is no change.
    struct Seen: Equatable {
        var people: [PersonPresence]
        var showMe: Bool

        init(_ people: [PersonPresence], showMe: Bool = true) {
            self.people = people
            self.showMe = showMe
        }

        static func == (a: Seen, b: Seen) -> Bool {
            a.showMe == b.showMe && a.people.map(\.steady) == b.people.map(\.steady)
        }
    }
}

extension PersonPresence {
    /// This entry without the time that moves while they are here.
    fileprivate var steady: PersonPresence {
        var steady = self
        if here { steady.lastSeen = nil }
        return steady
    }
}
