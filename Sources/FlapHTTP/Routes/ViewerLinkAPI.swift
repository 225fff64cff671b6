import FlapEndpoints
import FoundationEssentials
import Hummingbird

/// `GET /v1/viewer` (the owner's): the links that put the board on a TV, `/tv` with the viewer
/// key in its fragment, and their QR codes: one for each panel (a browser panel is a TV's own),
/// the first panel's also at the top. On the plain port: a TV's browser cannot be made to trust
/// the board's own authority, and the viewer key only reads the board.
struct ViewerLinkAPI: RouteGroup {
    let viewerKey: String?
    let links: InvitationLinks
    let panels: any PanelsQuery

    struct PanelLink: Encodable {
        var panel: String
        var driver: String
        var url: String
        var qrCode: String?
    }

    struct ViewerLinks: Encodable {
        var url: String
        var qrCode: String?
        var panels: [PanelLink]
    }

    func add(to v1: AccessRoutes) {
        v1.on(.viewerLink, .owner) { request, _ in
            guard let viewerKey else { throw APIError(.notFound, "this board has no viewer key ([api] viewer_key is empty)") }
            let host = (try? links.host(for: request, asking: nil)) ?? "localhost"
            let base = "http://\(host):\(links.plainPort() ?? 8080)/tv"
            let views = await panels.panels()
            let each = views.enumerated().map { index, view in
                // The first panel is /tv's own; the others are named.
                let url = index == 0 ? "\(base)#key=\(viewerKey)" : "\(base)?panel=\(Self.queryValue(view.id))#key=\(viewerKey)"
                return PanelLink(panel: view.id, driver: view.driver, url: url, qrCode: links.qrCode(url))
            }
            let first = each.first?.url ?? "\(base)#key=\(viewerKey)"
            return Answer(ViewerLinks(url: first, qrCode: each.first?.qrCode ?? links.qrCode(first), panels: each))
        }
    }

    /// `text` for a query string: bytes other than letters, digits and `-._~` as %XX
    /// (FoundationEssentials has no `addingPercentEncoding`).
    static func queryValue(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
