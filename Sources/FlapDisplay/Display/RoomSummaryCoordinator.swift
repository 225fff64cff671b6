import FlapCore
import FlapKiosk
import Logging
import Wematch

/// Keeps a split-flap panel showing the room in words (``KioskSummary``): planned and moved
/// like any message, changed only once the flaps have landed and then rested ``settle`` (so
/// they are not forever turning and every summary is read), and never written to the inbox
/// (the room is live; there is nothing to resume).
public actor RoomSummaryCoordinator<C: Clock> where C.Duration == Duration {
    /// The panel it shows the room on.
    public let panelID: String
    private let motion: MotionLoop<C>
    private let size: BoardSize
    private let clock: C
    private let room: @Sendable () async -> RoomState?
    private let logger: Logger
    /// The least time between two changes of the board.
    public let settle: Duration

    /// Shows `room`'s summary on panel `panelID` through `motion`, once it has held still for `settle`.
    public init(
        panelID: String, motion: MotionLoop<C>, size: BoardSize, clock: C, settle: Duration = .seconds(5),
        logger: Logger, room: @escaping @Sendable () async -> RoomState?
    ) {
        self.panelID = panelID
        self.motion = motion
        self.size = size
        self.clock = clock
        self.settle = settle
        self.logger = logger
        self.room = room
    }

    /// Runs until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [motion, logger, panelID] in
                for await event in motion.motionEvents {
                    if case .failed(let error, _) = event {
                        logger.error("panel failed while moving", metadata: ["panel": "\(panelID)", "error": "\(error)"])
                    }
                }
            }
            await showSummaries()
            group.cancelAll()
        }
    }

    /// The room's summary, shown again whenever it changes, until cancelled.
    private func showSummaries() async {
        var shown: Board?
        while !Task.isCancelled {
            let board = KioskSummary.board(await room(), size: size)
            var wait = Duration.seconds(1)
            if board != shown {
                do {
                    try await motion.show(board, token: nil)
                    shown = board
                    wait = settle
                    while await motion.isMoving {
                        guard (try? await clock.sleep(for: .milliseconds(250), tolerance: nil)) != nil else { return }
                    }
                } catch {
                    logger.error("could not show the room", metadata: ["panel": "\(panelID)", "error": "\(error)"])
                }
            }
            guard (try? await clock.sleep(for: wait, tolerance: nil)) != nil else { return }
        }
    }
}
