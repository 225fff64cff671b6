import FlapCore
import FlapEndpoints
import FoundationEssentials
import Hummingbird

/// `GET /v1/board`: what each panel shows (codes and text), whether it is moving, and the
/// message it shows (left out for the viewer key, which sees the board, not who wrote it).
struct BoardAPI: RouteGroup {
    let panels: any PanelsQuery

    func add(to v1: AccessRoutes) {
        v1.on(.board, .onlookers) { _, context in await board(withMessages: !context.isViewer) }
    }

    /// One panel as `GET /v1/board` lists it.
    struct PanelView: Encodable, Sendable {
        var id: String; var rows: Int; var columns: Int; var codes: [[Int]]; var text: [String]; var moving: Bool; var message: String?
        /// What code 62 shows on this panel: `heart` or `degree`; nil (left out) when its
        /// modules have no flap 62 (an RS-485 reel).
        var flap62: Flap62?
        /// When the panel's quiet hours end, while it is in them (a TV view dims till then).
        var quietUntil: Date?
    }

    private func board(withMessages: Bool) async -> Answer<[String: [PanelView]]> {
        let views = await panels.panels().map {
            PanelView(
                id: $0.id, rows: $0.board.size.rows, columns: $0.board.size.columns, codes: $0.board.codeRows,
                text: $0.lines, moving: $0.moving, message: withMessages ? $0.messageId : nil,
                flap62: $0.flaps?.hasFlap62 == false ? nil : $0.board.flap62,
                quietUntil: $0.quietUntil)
        }
        return Answer(["panels": views])
    }
}
