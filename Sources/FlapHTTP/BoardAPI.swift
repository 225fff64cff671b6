import FlapCore
import Hummingbird

/// `GET /v1/board`: what each panel shows (codes and text), and whether it is moving.
struct BoardAPI {
    let panels: any PanelsQuery

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.get("board") { _, _ in await board() }
    }

    private func board() async -> Response {
        struct View: Encodable {
            var id: String; var rows: Int; var columns: Int; var codes: [[Int]]; var text: [String]; var moving: Bool; var message: String?
        }
        let views = await panels.panels().map {
            View(id: $0.id, rows: $0.board.size.rows, columns: $0.board.size.columns, codes: $0.board.codeRows,
                 text: $0.lines, moving: $0.moving, message: $0.messageId)
        }
        return Responses.json(.ok, ["panels": views])
    }
}
