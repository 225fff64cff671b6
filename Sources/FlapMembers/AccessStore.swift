import FlapPrimitives
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Who may use the board and how they prove it: the owner's and members' sessions, invitation and
/// pairing links, members' keys. Kept in `access.json` (digests only, written whole after every
/// change that matters), so a restart or a power cut signs no one out and lets no one new in.
public actor AccessStore {
    /// A session lasts while it is used: this long after its last use.
    public static let sessionLifetime: TimeInterval = 90 * 86_400
    /// An invitation link works once, within a day.
    public static let invitationLifetime: TimeInterval = 86_400
    /// A pairing link (the owner's phone) works once, within ten minutes.
    public static let pairingLifetime: TimeInterval = 600
    static let mostMembers = 100
    static let mostSessions = 512
    static let mostKeysEach = 8
    /// How long the owner can take a removal back.
    public static let undoWindow: TimeInterval = 600
    /// How long a removed member's phone is told why it was signed out (as long as a session lasts).
    static let removalMemory: TimeInterval = sessionLifetime
    static let mostRemovals = 100

    var file: AccessFile
    /// Entries by digest, for lookups (rebuilt from `file` after each change).
    var found: Digests
    private let path: String?
    let now: @Sendable () -> Date
    private let logger: Logger
    private var guesses = RedeemLimit()
    /// When the file was last written (sessions' last uses are written at most once a day).
    var savedAt = Date.distantPast
    /// Those following who is in the household (``householdChanges()``).
    private let household = Watchers<Void>()

    /// With `path`, kept in that file; `legacySessions`, the owner's sessions of an earlier flapd
    /// (`sessions.json`: ids and their ends), taken over as digests and the old file removed.
    public init(
        path: String?, legacySessions: String? = nil, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "flapd.access")
    ) {
        self.path = path
        self.now = now
        self.logger = logger
        var file = path.map { AccessFile.load($0, logger: logger) } ?? AccessFile()
        let tookOver = legacySessions.map { file.takeOver($0, now: now()) } ?? false
        self.file = file
        found = Digests(file)
        if tookOver, let path, let legacySessions {
            do {
                try file.save(to: path)
                unlink(legacySessions)
            } catch {
                logger.error("cannot save the members file", metadata: ["file": "\(path)", "error": "\(error)"])
            }
        }
    }

    // MARK: Members

    /// The members, in the order they were invited.
    public func members() -> [Member] { file.members }

    /// A tick after each change to who is in the household (a member added, removed or restored);
    /// ticks not yet taken are one. Presence follows it; the routes that change it tell no one.
    public nonisolated func householdChanges() -> AsyncStream<Void> { household.watch(bufferingPolicy: .bufferingNewest(1)) }

    /// A new member and their first invitation.
    public func addMember(name: String, sender: String, othersNames: [String] = []) throws(MemberProblem) -> (Member, Invitation) {
        let name = name.trimmingSpaces
        if let problem = Self.nameProblem(name) { throw MemberProblem(field: "name", problem: problem) }
        // Names in the household are one each, as a person reads them (the owner's among `othersNames`).
        if let taken = (file.members.map(\.name) + othersNames).first(where: { ShownName.likeness($0) == ShownName.likeness(name) }) {
            throw MemberProblem(field: "name", problem: "\(taken) is already in the household; give another name", isConflict: true)
        }
        if let problem = Self.senderProblem(sender) { throw MemberProblem(field: "sender", problem: problem) }
        if let other = file.members.first(where: { $0.sender == sender }) {
            throw MemberProblem(
                field: "sender", problem: "\(sender) is already \(other.name)'s; each member has a sender of their own", isConflict: true)
        }
        guard file.members.count < Self.mostMembers else {
            throw MemberProblem(
                field: "name", problem: "the board has \(Self.mostMembers) members, as many as it takes; remove one first", isConflict: true)
        }
        let member = Member(id: "m-" + AccessToken.random().prefix(10).lowercased(), name: name, sender: sender, createdAt: now())
        file.members.append(member)
        let invitation = invite(member.id, lifetime: Self.invitationLifetime)
        household.yield(())
        return (member, invitation)
    }

    /// Removes a member: their sessions, keys and invitations stop at once. nil: no such member.
    /// `messageCleared`: what the owner chose for their message, remembered for the list.
    public func removeMember(_ id: String, messageCleared: Bool = false) -> Removal? {
        guard let member = file.members.first(where: { $0.id == id }) else { return nil }
        let at = now()
        let removal = Removal(
            member: member, at: at, messageCleared: messageCleared,
            sessions: file.sessions.filter { $0.member == id }, keys: file.keys.filter { $0.member == id })
        file.members.removeAll { $0.id == id }
        file.sessions.removeAll { $0.member == id }
        file.keys.removeAll { $0.member == id }
        file.invitations.removeAll { $0.member == id }
        var removed = (file.removed ?? []).filter { at.timeIntervalSince($0.at) <= Self.removalMemory && $0.member.id != id }
        removed.append(removal)
        file.removed = Array(removed.suffix(Self.mostRemovals))
        changed()
        household.yield(())
        return removal
    }

    /// The members removed within the undo window, newest last.
    public func recentRemovals() -> [Removal] {
        let at = now()
        return (file.removed ?? []).filter { $0.undoUntil > at }
    }

    /// Takes a removal back within ``undoWindow``: the member, their sessions and their keys return.
    public func undoRemoval(_ id: String) throws(UndoRefusal) -> Member {
        let at = now()
        guard let index = file.removed?.lastIndex(where: { $0.member.id == id }), let removal = file.removed?[index] else { throw .unknown(id) }
        guard removal.undoUntil > at else { throw .tooLate(removal.member) }
        if let other = file.members.first(where: { $0.sender == removal.member.sender }) { throw .senderTaken(removal.member, by: other.name) }
        guard file.members.count < Self.mostMembers else { throw .boardFull(removal.member) }
        file.removed?.remove(at: index)
        file.members.append(removal.member)
        file.sessions += removal.sessions.filter { at.timeIntervalSince($0.at) <= Self.sessionLifetime }
        file.keys += removal.keys
        changed()
        household.yield(())
        return removal.member
    }

    /// The removal that ended the session `token`, if the owner removed its member lately.
    public func removal(endingSession token: String) -> Removal? {
        guard AccessToken.wellFormed(token) else { return nil }
        let digest = AccessToken.digest(token), at = now()
        return file.removed?.last { removal in
            at.timeIntervalSince(removal.at) <= Self.removalMemory && removal.sessions.contains { $0.digest == digest }
        }
    }

    /// A new invitation for member `id` (their earlier unused ones stop working); nil: no such member.
    public func newInvitation(for id: String) -> Invitation? {
        guard file.members.contains(where: { $0.id == id }) else { return nil }
        file.invitations.removeAll { $0.member == id }
        return invite(id, lifetime: Self.invitationLifetime)
    }

    /// A link that signs the owner's phone in: once, within ten minutes.
    public func pairing() -> Invitation { invite(nil, lifetime: Self.pairingLifetime) }

    /// A key for member `id`'s scripts, shown once; nil: no such member. Beyond 8 keys, the oldest stops.
    public func newKey(for id: String) -> String? {
        guard file.members.contains(where: { $0.id == id }) else { return nil }
        let token = AccessToken.random()
        file.keys.append(.init(digest: AccessToken.digest(token), member: id, at: now()))
        let theirs = file.keys.filter { $0.member == id }
        if theirs.count > Self.mostKeysEach, let oldest = theirs.min(by: { $0.at < $1.at }) {
            file.keys.removeAll { $0.digest == oldest.digest }
        }
        changed()
        return token
    }

    /// The member whose key `token` is, if it is one.
    public func member(withKey token: String) -> Member? {
        guard AccessToken.wellFormed(token), let index = found.keys[AccessToken.digest(token)], let id = file.keys[index].member else { return nil }
        return file.members.first { $0.id == id }
    }

    /// What redeeming a link gives.
    public enum Redemption: Sendable, Equatable {
        case signedIn(principal: Principal, token: String, expires: Date)
        /// Unknown, used or expired.
        case refused
        /// Too many wrong links lately: try again after this many seconds.
        case tooManyGuesses(retryAfter: Int)
    }

    /// Turns an invitation or pairing link into a session, once. `client`: the address it came from, whose wrong guesses are counted (``RedeemLimit``).
    public func redeem(_ token: String, from client: String) -> Redemption {
        let at = now()
        if let wait = guesses.wait(for: client, at: at) { return .tooManyGuesses(retryAfter: wait) }
        guard AccessToken.wellFormed(token), let index = found.invitations[AccessToken.digest(token)] else {
            guesses.failed(for: client, at: at)
            return .refused
        }
        let entry = file.invitations.remove(at: index)
        guard entry.at > at, let principal = principal(entry.member) else {
            changed()
            guesses.failed(for: client, at: at)
            return .refused
        }
        let (session, expires) = openSession(for: principal)
        return .signedIn(principal: principal, token: session, expires: expires)
    }

    // MARK: Inside

    private func invite(_ member: String?, lifetime: TimeInterval) -> Invitation {
        let token = AccessToken.random(), at = now()
        file.invitations.removeAll { $0.at <= at }
        file.invitations.append(.init(digest: AccessToken.digest(token), member: member, at: at.addingTimeInterval(lifetime)))
        changed()
        return Invitation(token: token, expiresAt: at.addingTimeInterval(lifetime), memberID: member)
    }

    func principal(_ member: String?) -> Principal? {
        guard let member else { return .owner }
        return file.members.first { $0.id == member }.map(Principal.member)
    }

    func changed() {
        found = Digests(file)
        guard let path else { return }
        do {
            try file.save(to: path)
            savedAt = now()
        } catch {
            // Kept in memory; said, since a restart would lose what changed.
            logger.error("cannot save the members file; changes last until flapd stops", metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }
}

/// Where each entry of the file is, by its digest.
struct Digests {
    var sessions: [String: Int]
    var keys: [String: Int]
    var invitations: [String: Int]

    init(_ file: AccessFile) {
        func positions(_ entries: [AccessFile.Stored]) -> [String: Int] {
            Dictionary(entries.enumerated().map { ($1.digest, $0) }, uniquingKeysWith: { $1 })
        }
        sessions = positions(file.sessions)
        keys = positions(file.keys)
        invitations = positions(file.invitations)
    }
}

extension Principal {
    var memberID: String? {
        if case .member(let member) = self { return member.id }
        return nil
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
