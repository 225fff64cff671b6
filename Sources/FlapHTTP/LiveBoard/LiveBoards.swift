import FlapCore
import FlapMembers
import FlapPrimitives
import FoundationEssentials

/// What browsers watching the boards are told, as it happens: each plan as it starts (every
/// module's path of codes and landing times, and the wall-clock instant of its time zero, so a
/// page animates the motion the panel makes) and each board a panel comes to rest on. A new
/// watcher is first told every panel's current state: its resting board, and the plan in flight
/// if one is, never a replay of what came before.
public actor LiveBoards {
    /// What the pages are told.
    public enum Event: Sendable, Equatable {
        /// `volume`: how loud the board plays the plan's clacks (0…1), nil when it does not.
        case plan(panel: String, plan: FlipPlan, startedAt: Date, volume: Double?)
        case board(panel: String, board: Board)
    }

    private var current: [String: (board: Board, plan: (FlipPlan, Date, Double?)?)] = [:]
    private var order: [String] = []
    /// Each watcher's stream of Server-Sent Events, each event encoded once for them all.
    private let watchers = Watchers<String>()

    /// No board known yet and nobody watching.
    public init() {}

    /// What a panel did, as the watchers are told it: its board at rest, the plan it plays.
    public func take(_ event: PanelEvent) {
        switch event {
        case .resting(let panel, let board, _), .displayed(let panel, let board, _, _): resting(panel: panel, board: board)
        case .planPlaying(let panel, let plan, let start, let volume): planStarted(panel: panel, plan: plan, at: start, volume: volume)
        case .planStarted: break
        }
    }

    /// A panel's board at rest.
    public func resting(panel: String, board: Board) {
        if current[panel] == nil { order.append(panel) }
        current[panel] = (board, nil)
        broadcast(.board(panel: panel, board: board))
    }

    /// `volume`: how loud the board plays its clacks (0…1), nil when it does not, so a browser
    /// that plays them too stays silent when the board is.
    public func planStarted(panel: String, plan: FlipPlan, at start: Date, volume: Double? = nil) {
        if current[panel] == nil { order.append(panel) }
        current[panel] = (current[panel]?.board ?? plan.board(at: .zero), (plan, start, volume))
        broadcast(.plan(panel: panel, plan: plan, startedAt: start, volume: volume))
    }

    /// Watches from now, as Server-Sent Events: the current state first. At most 64 events wait
    /// for a slow watcher (the oldest give way; a resting board follows every plan).
    /// `whose`: the watcher's (`member m-…`, `owner`), so ``end(watchers:with:)`` can end theirs
    /// and ``tell(_:_:)`` reach them.
    public func watch(whose: String? = nil) -> AsyncStream<String> {
        var first: [String] = []
        for panel in order {
            guard let state = current[panel] else { continue }
            first.append(Event.board(panel: panel, board: state.board).serverSentEvent)
            if let (plan, start, volume) = state.plan, start.addingTimeInterval(plan.duration / .seconds(1)) > Date() {
                first.append(Event.plan(panel: panel, plan: plan, startedAt: start, volume: volume).serverSentEvent)
            }
        }
        return watchers.watch(bufferingPolicy: .bufferingNewest(64), first: first, tag: whose)
    }

    /// How many pages are watching.
    public var watcherCount: Int { watchers.count }

    /// The tag of `person`'s streams (`owner`, or `member m-…` for a member's id).
    public static func watcherTag(person: Person) -> String { person == .owner ? person.rawValue : "member \(person.rawValue)" }

    /// How often ``heartbeat()`` should be called: often enough that a page that has gone is
    /// found (its second write fails) within half a minute while the boards are still.
    public static let heartbeatPeriod = Duration.seconds(10)

    /// Sends every watcher an SSE comment. A page that has gone is only found when something is
    /// written to it (the first write after its FIN is answered with a reset, the next fails),
    /// so without this a still board would keep every closed page's connection open.
    public func heartbeat() {
        watchers.yield(": keepalive\n\n")
    }

    /// Tells `whose` watchers (and only them) `event`, written as it is: what is theirs alone,
    /// such as the household as they see it.
    public func tell(_ whose: String, _ event: String) {
        watchers.yield(event, tagged: whose)
    }

    /// Tells `whose` watchers `last` (their access ended) and ends their streams.
    public func end(watchers whose: String, with last: String) {
        watchers.finish(tagged: whose, last: last)
    }

    /// Ends every watcher's stream (flapd is stopping); from any thread, at once.
    public nonisolated func finishAll() {
        watchers.finishAll()
    }

    private func broadcast(_ event: Event) {
        guard !watchers.isEmpty else { return }
        watchers.yield(event.serverSentEvent)
    }
}

extension LiveBoards.Event {
    /// As a Server-Sent Event: `event: plan` or `event: board`, its JSON on one data line.
    public var serverSentEvent: String {
        switch self {
        case .board(let panel, let board):
            return "event: board\ndata: \(Self.json(BoardBody(panel: panel, codes: board.codeRows)))\n\n"
        case .plan(let panel, let plan, let start, let volume):
            let json = PlanEventText.json(
                panel: panel, plan: plan, startedAt: start.timeIntervalSince1970 * 1000, duration: Self.milliseconds(plan.duration),
                volume: volume, gains: volume == nil ? nil : Self.gains(plan))
            return "event: plan\ndata: \(json)\n\n"
        }
    }

    /// `board`'s data: the codes a panel rests on.
    struct BoardBody: Encodable {
        var panel: String
        var codes: [[Int]]
    }

    /// Each module's clack gains in the order of its landings (to a thousandth).
    private static func gains(_ plan: FlipPlan) -> [[Double]] {
        var gains = [[Double]](repeating: [], count: plan.modules.count)
        for clack in plan.clackEvents {
            let index = clack.row * plan.size.columns + clack.column
            if gains.indices.contains(index) { gains[index].append((clack.gain * 1000).rounded() / 1000) }
        }
        return gains
    }

    private static func milliseconds(_ duration: Duration) -> Double { duration / .milliseconds(1) }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func json(_ body: some Encodable) -> String {
        String(decoding: (try? encoder.encode(body)) ?? Data("{}".utf8), as: UTF8.self)
    }
}
