import FlapMembers
import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Glibc
import Logging
import Synchronization

/// Whether the board has an owner, and until it has, the code it shows for someone to claim it
/// with. Reading the board is the proof: a person who can see the code is standing in front of
/// it. The code lasts ``lifetime``, after which the board shows a new one, and so it does after
/// ``wrongTriesAllowed`` wrong tries; tries are also limited per client, as pairing links are.
///
/// The code is in `setup-code` in the state directory (mode 0600, for `sudo flapctl setup-code`),
/// in the journal, and on the panels, never in an answer of the API. Whether the board is
/// claimed is in `setup.json`.
public actor BoardClaim<C: Clock<Duration>> where C: Sendable {
    /// How long a code lasts before the board shows a new one.
    public static var lifetime: Duration { SetupCode.lifetime }
    /// Wrong codes the board takes before it shows a new one.
    public static var wrongTriesAllowed: Int { 5 }

    private enum State {
        case claimed
        case open(code: SetupCode, until: C.Instant, wrong: Int)
    }

    private var state: State
    /// Whether `setup.json` says the board has had an owner: a code shown then is a handover,
    /// which the owner's key or session does not call off. Read without the actor, since every
    /// request with the API key asks it first.
    private let recordedFlag: Mutex<Bool>
    private var recorded: Bool {
        get { recordedFlag.withLock { $0 } }
        set { recordedFlag.withLock { $0 = newValue } }
    }

    /// Whether the board has ever had an owner (then the key and phones claim nothing).
    public nonisolated var hasHadOwner: Bool { recordedFlag.withLock { $0 } }
    private let clock: C
    private let now: @Sendable () -> Date
    private let recordPath: String
    private let codePath: String
    private let logger: Logger
    private var guesses = RedeemLimit()
    private let shown = Watchers<SetupCode?>()

    /// The board's claim, kept in `stateDirectory`. `owned`: it has an owner already (a key in
    /// flapd.toml, an owner's session). `earlierVersion`: its state directory is an earlier
    /// version's (a key file but no record), whose owner reached it by its key, so it counts as
    /// claimed.
    public init(stateDirectory: String, owned: Bool, earlierVersion: Bool, clock: C, now: @escaping @Sendable () -> Date, logger: Logger) throws {
        recordPath = stateDirectory + "/setup.json"
        codePath = stateDirectory + "/setup-code"
        self.clock = clock
        self.now = now
        self.logger = logger
        let record: ClaimRecord?
        do {
            record = try SmallFile.decode(ClaimRecord.self, at: recordPath, largest: ClaimRecord.largest, what: "a setup record")
        } catch {
            // A damaged record must not open the board to whoever is near it: it counts as claimed,
            // and the owner can still ask for a code (`sudo flapctl setup-code --new`).
            logger.warning("the setup record cannot be read; the board counts as claimed", metadata: ["problem": "\(error)"])
            record = ClaimRecord(claimed: true)
        }
        let claimed = owned || (record?.claimed ?? earlierVersion)
        state = .claimed
        recordedFlag = Mutex(claimed)
        if claimed {
            if record?.claimed != true { try Self.write(ClaimRecord(claimed: true, claimedAt: now()), to: recordPath) }
            unlink(codePath)
        } else {
            if record == nil { try Self.write(ClaimRecord(claimed: false), to: recordPath) }
            state = try Self.show(.random(), clock: clock, in: codePath, logger: logger)
        }
    }

    /// Whether the board has an owner and shows no code.
    public var isClaimed: Bool {
        if case .claimed = state { return true }
        return false
    }

    /// The code the board shows now, or nil when it shows none.
    public func code() throws -> SetupCode? {
        try renewIfExpired()
        guard case .open(let code, _, _) = state else { return nil }
        return code
    }

    /// The code as it changes: the new one whenever the board shows another, nil once it is
    /// claimed. Ask ``code()`` for the one shown now.
    public nonisolated func codes() -> AsyncStream<SetupCode?> { shown.watch(bufferingPolicy: .bufferingNewest(1)) }

    /// `typed` tried by `client` (its address). Right, the board is claimed (recorded before this
    /// returns) and shows no code; wrong, it counts against the code and against the client.
    public func claim(_ typed: String, from client: String) throws -> ClaimOutcome {
        try renewIfExpired()
        guard case .open(let code, let until, let wrong) = state else { return .alreadyClaimed }
        if let wait = guesses.wait(for: client, at: now()) { return .tooManyTries(wait: wait) }
        guard let given = SetupCode(typed: typed) else { return .malformed }
        guard given.digits.utf8.elementsEqual(code.digits.utf8) else {
            guesses.failed(for: client, at: now())
            let tries = wrong + 1
            if tries >= Self.wrongTriesAllowed {
                logger.warning("\(tries) wrong setup codes: the board shows a new one")
                try open(with: .random())
                return .wrong(triesLeft: 0)
            }
            state = .open(code: code, until: until, wrong: tries)
            return .wrong(triesLeft: Self.wrongTriesAllowed - tries)
        }
        try Self.write(ClaimRecord(claimed: true, claimedAt: now()), to: recordPath)
        state = .claimed
        recorded = true
        unlink(codePath)
        shown.yield(nil)
        logger.notice("the board was claimed with its setup code", metadata: ["client": "\(client)"])
        return .claimed
    }

    /// The board has an owner by other means (a phone paired with `flapctl pair`, the key): a
    /// board that never had one stops showing a code. A code shown to hand the board over stays:
    /// the owner's key and phones go on working meanwhile.
    public func owned() throws {
        guard !recorded else { return }
        try Self.write(ClaimRecord(claimed: true, claimedAt: now()), to: recordPath)
        state = .claimed
        recorded = true
        unlink(codePath)
        shown.yield(nil)
    }

    /// A new code on the board, to hand it over or to recover it: whoever types it becomes its
    /// owner. The owner's sessions go on until then.
    public func newCode() throws -> SetupCode {
        try open(with: .random())
        guard case .open(let code, _, _) = state else { return .random() }
        return code
    }

    /// Shows `code` from now for ``lifetime``: kept in its file, said in the journal, told to the
    /// panels, and replaced when it ends.
    private func open(with code: SetupCode) throws {
        state = try Self.show(code, clock: clock, in: codePath, logger: logger)
        shown.yield(code)
    }

    /// `code` kept in its file and said in the journal, lasting from now.
    private static func show(_ code: SetupCode, clock: C, in path: String, logger: Logger) throws -> State {
        try DurableFile.write(Data("\(code)\n".utf8), to: path, mode: 0o600)
        logger.notice(
            "set this board up from a phone: open its page and type the code it shows", metadata: ["code": "\(code)", "file": "\(path)"])
        return .open(code: code, until: clock.now.advanced(by: lifetime), wrong: 0)
    }

    private func renewIfExpired() throws {
        guard case .open(_, let until, _) = state, clock.now >= until else { return }
        try open(with: .random())
    }

    private static func write(_ record: ClaimRecord, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        try DurableFile.write(try encoder.encode(record), to: path, mode: 0o600)
    }

    /// Replaces each code on the board as it ends, until cancelled (flapd's service for it).
    public func run() async {
        var changes = shown.watch(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        while !Task.isCancelled {
            guard case .open(_, let until, _) = state else {
                // Claimed: nothing ends until someone asks for a new code.
                guard await changes.next(isolation: self) != nil else { return }
                continue
            }
            guard (try? await clock.sleep(until: until, tolerance: nil)) != nil else { return }
            do { try renewIfExpired() } catch { logger.error("the setup code cannot be replaced", metadata: ["problem": "\(error)"]) }
        }
    }
}

/// The board's claim as the API reaches it, whatever clock it runs on.
public protocol ClaimAccess: Sendable {
    /// Whether the board has an owner and shows no code.
    var isClaimed: Bool { get async }
    /// `typed` tried by `client`: right, the board is claimed.
    func claim(_ typed: String, from client: String) async throws -> ClaimOutcome
    /// A new code on the board, for handing it over.
    func newCode() async throws -> SetupCode
    /// Whether the board has ever had an owner, asked without waiting.
    var hasHadOwner: Bool { get }
    /// The board has an owner by other means: it shows no code.
    func owned() async throws
}

extension BoardClaim: ClaimAccess {}
