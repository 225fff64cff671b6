import FlapMembers
import FlapPrimitives
import FoundationEssentials
import Logging

/// Who of the household is around: each person (the owner and every member) is here while a
/// page or app of theirs has the live stream open or has pinged within ``pingLifetime``, and
/// otherwise was last seen at a time, kept in `presence.json` across restarts with whether they
/// hide themselves. Writing lasts ``writingLifetime`` after its last report.
///
/// Time is the injected `now`: what is asked is answered by it at once, and ``run(on:)`` wakes
/// at the next expiry so those watching ``changes()`` hear of it.
public actor PresenceBook {
    /// A ping (an app without the live stream) counts for this long.
    public static let pingLifetime: TimeInterval = 300
    /// "Writing…" lasts this long after the last keystroke reported.
    public static let writingLifetime: TimeInterval = 5
    /// While someone stays here, their sighting is written at most this often.
    static let savedWhileHere: TimeInterval = 300
    /// Comings and goings are written at most this often: a page opened and closed a hundred
    /// times is a few writes, not two hundred. What waits is written at the next, or at the stop.
    static let sightingsSavedEvery: TimeInterval = 10

    /// What is not kept: who has which streams open, the last ping, writing.
    struct Live {
        var streams: Set<Int> = []
        var pingedAt: Date?
        var writingUntil: Date?
    }

    /// A person's setting changes (shown or not, the owner's name) may come this often a minute.
    public static let settingChangesAMinute = 10

    private var settingChanges: [String: [Date]] = [:]
    private var file: PresenceFile
    private var live: [String: Live] = [:]
    private var told: [String: Seen] = [:]
    private var savedAt = Date.distantPast
    private var sightingsUnsaved = false
    private let access: AccessStore
    /// Who is in the household, as it changes: followed from the book's making, so a member added before ``run(on:)`` counts.
    private let household: AsyncStream<Void>
    private let path: String?
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let watchers = Watchers<Void>()
    private let wake = WakeSignal()

    /// With `path`, sightings and settings are kept in that file.
    public init(
        access: AccessStore, path: String?, now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "flapd.presence")
    ) {
        self.access = access
        household = access.householdChanges()
        self.path = path
        self.now = now
        self.logger = logger
        file = path.map { PresenceFile.load($0, logger: logger) } ?? PresenceFile()
    }

    /// A tick after each change anyone could see (here, away, writing, hidden, a name); ticks
    /// not yet taken are one.
    public nonisolated func changes() -> AsyncStream<Void> {
        watchers.watch(bufferingPolicy: .bufferingNewest(1))
    }

    // MARK: What happens

    /// The largest stream number: the largest integer a page's JavaScript holds exactly.
    static let largestStream = (1 << 53) - 1

    /// A live stream of `person`'s opened: they are here until it closes. Its number, for
    /// ``closed(_:stream:)``: drawn at random, so it tells nothing of how many others opened.
    /// The stream tells its own page where everyone is; the others hear only what changes.
    public func opened(_ person: Person) -> Int {
        let person = person.rawValue
        var stream: Int
        repeat { stream = Int.random(in: 1...Self.largestStream) } while live[person]?.streams.contains(stream) == true
        changing(person) { $0.streams.insert(stream) }
        return stream
    }

    /// `person`'s stream ended (or its page said it is leaving); a stream already let go is nothing.
    public func closed(_ person: Person, stream: Int) {
        let person = person.rawValue
        guard live[person]?.streams.contains(stream) == true else { return }
        changing(person) { live in
            live.streams.remove(stream)
            if live.streams.isEmpty { live.writingUntil = nil }
        }
    }

    /// `person`'s own change. The name is the owner's only: a member's is refused (a
    /// ``PresenceProblem``). A setting the disk cannot keep is in force until flapd stops, and
    /// the disk's error is thrown (a `StorageFault`), so the person is told it will not last.
    public func update(_ person: Person, _ change: PresenceChange) async throws {
        let person = person.rawValue
        if change.name != nil || change.showMe != nil {
            // Each is written to the disk and told to every page: a person's own pace, not a script's.
            let at = now()
            let recent = (settingChanges[person] ?? []).filter { at.timeIntervalSince($0) < 60 }
            guard recent.count < Self.settingChangesAMinute else {
                throw PresenceProblem(
                    field: change.name != nil ? "name" : "showMe",
                    problem: "at most \(Self.settingChangesAMinute) changes a minute; try again in a minute", isTooMany: true)
            }
            settingChanges[person] = recent + [at]
        }
        if let name = change.name {
            guard person == Self.owner else { throw PresenceProblem(field: "name", problem: "a member's name is the owner's to give") }
            let trimmed = String(name.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
            if let problem = ShownName.problem(trimmed) { throw PresenceProblem(field: "name", problem: problem) }
            // Names in the household are one each, as a person reads them.
            let members = await access.members()
            if let taken = members.first(where: { ShownName.likeness($0.name) == ShownName.likeness(trimmed) }) {
                throw PresenceProblem(field: "name", problem: "\(taken.name) is a member's name; choose another")
            }
            file.ownerName = trimmed
        }
        var settingChanged = change.name != nil
        if let showMe = change.showMe, showMe == (file.people[person]?.hidden == true) {
            file.people[person, default: .init()].hidden = showMe ? nil : true
            settingChanged = true
            watchers.yield(())
        }
        let at = now()
        changing(person) { live in
            if change.here == true || change.writing == true { live.pingedAt = at }
            if change.here == false {
                live.pingedAt = nil
                if let stream = change.stream { live.streams.remove(stream) }
            }
            if let writing = change.writing { live.writingUntil = writing ? at.addingTimeInterval(Self.writingLifetime) : nil }
            if change.here == false, live.streams.isEmpty { live.writingUntil = nil }
        }
        if settingChanged, let path {
            try file.save(to: path)
            (savedAt, sightingsUnsaved) = (at, false)
        }
    }

    /// A member was added, removed or restored: those watching hear of the household as it is
    /// now. What was kept of someone no longer a member (their sighting, their setting, a ping) is
    /// forgotten, so a member restored starts afresh.
    public func householdChanged() async {
        let members = Set(await access.members().map(\.id))
        let gone = Set(file.people.keys).union(live.keys).filter { $0 != Self.owner && !members.contains($0) }
        for person in gone {
            file.people[person] = nil
            live[person] = nil
            told[person] = nil
        }
        if !gone.isEmpty { save() }
        watchers.yield(())
    }

    /// Everyone still here is last seen now; flapd is stopping.
    public func close() {
        let at = now()
        for (person, state) in live where isHere(state, at) { file.people[person, default: .init()].lastSeen = at }
        save()
    }

    // MARK: What is seen

    private static let owner = Person.owner.rawValue

    /// The household as `asker` sees it (the owner first): those who hide are left out, except
    /// the asker's own entry. nil: as anyone outside sees it (MQTT, Home Assistant).
    public func people(for asker: Person?) async -> [PersonPresence] {
        let asker = asker?.rawValue
        let members = await access.members()
        let at = now()
        let everyone = [(Self.owner, file.ownerName ?? "Owner", Self.owner)] + members.map { ($0.id, $0.name, $0.sender) }
        return everyone.compactMap { id, name, sender in
            guard id == asker || file.people[id]?.hidden != true else { return nil }
            let state = live[id] ?? Live()
            let here = isHere(state, at)
            let writing = here && (state.writingUntil.map { $0 > at } ?? false)
            return PersonPresence(
                id: id, name: name, sender: sender, here: here, lastSeen: here ? at : lastSeen(id, state),
                writing: writing, you: id == asker ? true : nil)
        }
    }

    /// The owner's name as they gave it, nil until they do.
    public var ownerName: String? { file.ownerName }

    /// Whether `person` lets the others see them.
    public func showsMe(_ person: Person) -> Bool { file.people[person.rawValue]?.hidden != true }

    /// The people with a live stream open: the pages that hear of changes.
    public func watching() -> [Person] { live.filter { !$0.value.streams.isEmpty }.map { Person(rawValue: $0.key) } }

    // MARK: Time

    /// Until cancelled: at each expiry (a ping's five minutes, writing's five seconds), what it
    /// ends is ended and ``changes()`` hears of it; at each change of who is in the household
    /// (``AccessStore/householdChanges()``), ``householdChanged()``.
    public func run<C: Clock>(on clock: C) async where C.Duration == Duration {
        await withDiscardingTaskGroup { group in
            group.addTask { [household] in for await _ in household { await self.householdChanged() } }
            await expireUntilCancelled(on: clock)
            group.cancelAll()
        }
    }

    private func expireUntilCancelled<C: Clock>(on clock: C) async where C.Duration == Duration {
        while !Task.isCancelled {
            let wait = nextExpiry().map { max(0, $0.timeIntervalSince(now())) }
            await withTaskGroup(of: Void.self) { group in
                if let wait { group.addTask { try? await clock.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) } }
                group.addTask { await self.wake.wait() }
                await group.next()
                group.cancelAll()
            }
            expire()
        }
    }

    private func nextExpiry() -> Date? {
        let unsaved = sightingsUnsaved ? [savedAt.addingTimeInterval(Self.sightingsSavedEvery)] : []
        return
            (live.values.flatMap { state in
                [state.pingedAt.map { $0.addingTimeInterval(Self.pingLifetime) }, state.writingUntil].compactMap { $0 }
            } + unsaved).min()
    }

    private func expire() {
        let at = now()
        if sightingsUnsaved, at.timeIntervalSince(savedAt) >= Self.sightingsSavedEvery { save() }
        for person in live.keys {
            changing(person) { state in
                if let pinged = state.pingedAt, at.timeIntervalSince(pinged) >= Self.pingLifetime { state.pingedAt = nil }
                if let until = state.writingUntil, until <= at { state.writingUntil = nil }
            }
        }
    }

    // MARK: Inside

    private func isHere(_ state: Live, _ at: Date) -> Bool {
        !state.streams.isEmpty || state.pingedAt.map { at.timeIntervalSince($0) < Self.pingLifetime } == true
    }

    /// A ping that has lapsed but not yet expired still counts as the last sighting.
    private func lastSeen(_ person: String, _ state: Live) -> Date? {
        [file.people[person]?.lastSeen, state.pingedAt].compactMap { $0 }.max()
    }

    /// Changes `person`'s live state. What the others would see differently is told; their
    /// sighting is kept when they come or go; the timer is woken for a new expiry.
    private func changing(_ person: String, _ change: (inout Live) -> Void) {
        let at = now()
        var state = live[person] ?? Live()
        let (pingedBefore, writingBefore, hadStreams) = (state.pingedAt, state.writingUntil, !state.streams.isEmpty)
        change(&state)
        live[person] = state.streams.isEmpty && state.pingedAt == nil && state.writingUntil == nil ? nil : state
        let here = isHere(state, at)
        let seen = Seen(here: here, writing: here && (state.writingUntil.map { $0 > at } ?? false))
        let before = told[person] ?? Seen(here: false, writing: false)
        told[person] = seen.here ? seen : nil
        if seen.here != before.here {
            // Arriving, seen now; leaving, now, or when their last ping was if it lapsed.
            let lapsed = pingedBefore.map { at.timeIntervalSince($0) >= Self.pingLifetime } ?? false
            file.people[person, default: .init()].lastSeen = !seen.here && !hadStreams && lapsed ? pingedBefore : at
            saveSighting()
        } else if seen.here, at.timeIntervalSince(savedAt) >= Self.savedWhileHere {
            file.people[person, default: .init()].lastSeen = at
            save()
        }
        if seen != before { watchers.yield(()) }
        if state.pingedAt != pingedBefore || state.writingUntil != writingBefore { wake.wake() }
    }

    /// What the others were last told of a person.
    struct Seen: Equatable {
        var here: Bool
        var writing: Bool
    }

    /// A coming or going written now, or within ``sightingsSavedEvery`` of the last write.
    private func saveSighting() {
        guard now().timeIntervalSince(savedAt) < Self.sightingsSavedEvery else { return save() }
        sightingsUnsaved = true
        wake.wake()
    }

    private func save() {
        guard let path else { return }
        do {
            try file.save(to: path)
            savedAt = now()
            sightingsUnsaved = false
        } catch {
            logger.error(
                "cannot save the presence file; sightings and settings last until flapd stops", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }
}
