import FlapCore
import FlapEndpoints
import FlapMCP
import FlapPictures
import FlapPrimitives
import HTTPTypes
import Hummingbird

/// `GET /v1/board.png` and `/v1/board.svg`: a panel as a picture for dashboards (Home Assistant
/// picture cards, Homepage, widget apps), drawn as `flapctl preview --png` draws it. Each answer
/// has an `ETag` made from the board and the size asked for, so a dashboard polling every few
/// seconds gets 304 and no picture while nothing changed.
struct BoardPictureAPI: RouteGroup {
    let panels: any PanelsQuery
    let renders: PictureRenders

    func add(to v1: AccessRoutes) {
        v1.on(.boardPNG, .onlookers) { request, context in try await picture(request, context, svg: false) }
        v1.on(.boardSVG, .onlookers) { request, context in try await picture(request, context, svg: true) }
    }

    private func picture(_ request: Request, _ context: APIRequestContext, svg: Bool) async throws -> Response {
        let all = await panels.panels()
        let asked = request.uri.queryParameters.get("panel")
        guard let panel = asked.map({ id in all.first { $0.id == id } }) ?? all.first else {
            let names = all.map(\.id).joined(separator: ", ")
            throw APIError(.notFound, "no panel \(asked ?? "") here" + (names.isEmpty ? "" : "; the panels are \(names)"))
        }
        var width: Int?
        if let given = request.uri.queryParameters.get("width") {
            guard !svg else { throw APIError(.badRequest, "width: an SVG picture has no pixel width; it scales to any size") }
            guard let number = Int(given), (16...4096).contains(number) else {
                throw APIError(.badRequest, "width: must be a whole number of pixels from 16 to 4096, not \(given.debugDescription)")
            }
            width = number
        }
        let tag = Self.tag(panel: panel.id, codes: panel.board.codeRows, variant: svg ? "svg" : "png\(width ?? 0)")
        var headers: HTTPFields = [.eTag: tag, .cacheControl: "no-cache"]
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: { $0.filter { $0 != " " } == tag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        if svg {
            headers[.contentType] = "image/svg+xml"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: BoardSVG.document(panel.board))))
        }
        let png: [UInt8]
        let board = panel.board
        let asker: PictureRenders.Asker = context.isViewer ? .other : .household
        do {
            png = try await renders.picture(tag: tag, for: asker) { [width] in try BoardPNG.encode(board, width: width) }
        } catch let error as RenderError {
            throw APIError(.badRequest, "width: \(error.description)")
        } catch let busy as PictureRenders.PicturesBusy {
            throw APIError(
                .tooManyRequests,
                "pictures at sizes not drawn yet are being drawn for the viewer key as fast as the board draws them; "
                    + "try again in \(busy.retryAfter) s, or ask for a size asked for before", headers: [.retryAfter: String(busy.retryAfter)])
        }
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    /// A hash of what the picture shows: the same board at the same size has the same tag.
    static func tag(panel: String, codes: [[Int]], variant: String) -> String {
        var hash = FNV1a()
        hash.add(panel.utf8)
        hash.add(0)
        for row in codes { hash.add(row.map { UInt8(truncatingIfNeeded: $0) }); hash.add(0xFF) }
        hash.add(variant.utf8)
        return hash.entityTag
    }
}
