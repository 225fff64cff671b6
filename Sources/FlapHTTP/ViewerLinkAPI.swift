import FoundationEssentials
import Hummingbird

/// `GET /v1/viewer` (the owner's): the link that puts the board on a TV, `/tv` with the viewer
/// key in its fragment, and its QR code. On the plain port: a TV's browser cannot be made to
/// trust the board's own authority, and the viewer key only reads the board.
struct ViewerLinkAPI {
    let viewerKey: String?
    let links: InvitationLinks

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.get("viewer") { request, _ in
            guard let viewerKey else { return Responses.error(.notFound, "this board has no viewer key ([api] viewer_key is empty)") }
            struct ViewerLink: Encodable { var url: String; var qrCode: String? }
            let host = (try? links.host(for: request, asking: nil)) ?? "localhost"
            let url = "http://\(host):\(links.plainPort() ?? 8080)/tv#key=\(viewerKey)"
            return Responses.json(.ok, ViewerLink(url: url, qrCode: links.qrCode(url)))
        }
    }
}
