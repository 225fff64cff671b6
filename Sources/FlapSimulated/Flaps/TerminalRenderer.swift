import FlapCore

/// Draws a panel's snapshots for people: in place with ANSI colour at up to 30 frames a second
/// on a terminal, or one plain board each time the panel comes to rest otherwise (for logs).
public struct TerminalRenderer: Sendable {
    /// Whether output is a terminal that understands ANSI.
    public var isTerminal: Bool
    /// Where the text goes (stdout in flapd).
    public var write: @Sendable (String) -> Void

    /// Draws on `write`: in place when `isTerminal`, else a board each time the panel rests.
    public init(isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.write = write
    }

    /// Renders until the stream ends.
    public func run<C: Clock>(_ snapshots: AsyncStream<PanelSnapshot>, clock: C) async where C.Duration == Duration {
        var lastDrawn: C.Instant?
        var drawnRows = 0
        var lastRestingBoard: Board?
        for await snapshot in snapshots {
            let resting = !snapshot.moving.contains(true)
            if !isTerminal {
                if resting, snapshot.board != lastRestingBoard {
                    write(BoardText.plain(snapshot.board) + "\n")
                    lastRestingBoard = snapshot.board
                }
                continue
            }
            // Skip frames that come faster than the eye; always draw the resting board.
            if !resting, let last = lastDrawn, last.duration(to: clock.now) < .milliseconds(33) { continue }
            let up = drawnRows > 0 ? "\u{1B}[\(drawnRows)A\r" : ""
            write(up + BoardText.ansi(snapshot.board, moving: snapshot.moving))
            drawnRows = snapshot.board.size.rows
            lastDrawn = clock.now
        }
    }
}
