import FlapCore
import FlapPrimitives
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// The web page flapd serves on its native API's port: plain HTML, CSS and ES modules built into
/// flapd (no build step, nothing fetched from elsewhere: the appliance may have no internet).
/// The page signs in with the API key for a session cookie and uses the API as any client does.
public enum WebPage {
    static let files: [String: (type: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        // The share target's action: the page, which fills its composer from the address.
        "/share": ("text/html; charset=utf-8", PackageResources.index_html),
        "/web/presence.js": ("text/javascript; charset=utf-8", PackageResources.presence_js),
        "/web/share.js": ("text/javascript; charset=utf-8", PackageResources.share_js),
        "/web/style.css": ("text/css; charset=utf-8", PackageResources.style_css),
        "/web/app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "/web/board.js": ("text/javascript; charset=utf-8", PackageResources.board_js),
        "/web/api.js": ("text/javascript; charset=utf-8", PackageResources.api_js),
        "/web/endpoints.js": ("text/javascript; charset=utf-8", WebEndpoints.module),
        "/web/compose.js": ("text/javascript; charset=utf-8", PackageResources.compose_js),
        "/web/paint.js": ("text/javascript; charset=utf-8", PackageResources.paint_js),
        "/web/lists.js": ("text/javascript; charset=utf-8", PackageResources.lists_js),
        "/web/status.js": ("text/javascript; charset=utf-8", PackageResources.status_js),
        "/web/numbering.js": ("text/javascript; charset=utf-8", PackageResources.numbering_js),
        "/web/room.js": ("text/javascript; charset=utf-8", PackageResources.room_js),
        "/favicon.ico": ("image/svg+xml", PackageResources.icon_svg),
        "/web/offline.js": ("text/javascript; charset=utf-8", PackageResources.offline_js),
        "/web/outbox.js": ("text/javascript; charset=utf-8", PackageResources.outbox_js),
        "/web/widget.js": ("text/javascript; charset=utf-8", PackageResources.widget_js),
        "/web/widget.css": ("text/css; charset=utf-8", PackageResources.widget_css),
        "/web/members.js": ("text/javascript; charset=utf-8", PackageResources.members_js),
        "/web/hardware.js": ("text/javascript; charset=utf-8", PackageResources.hardware_js),
        "/web/settings.js": ("text/javascript; charset=utf-8", PackageResources.settings_js),
        "/web/firststeps.js": ("text/javascript; charset=utf-8", PackageResources.firststeps_js),
        "/web/join.js": ("text/javascript; charset=utf-8", PackageResources.join_js),
        "/join": ("text/html; charset=utf-8", PackageResources.join_html),
        "/widget": ("text/html; charset=utf-8", PackageResources.widget_html),
        "/tv": ("text/html; charset=utf-8", PackageResources.tv_html),
        "/web/tv.js": ("text/javascript; charset=utf-8", PackageResources.tv_js),
        "/web/tv.css": ("text/css; charset=utf-8", PackageResources.tv_css),
        "/web/clacks.js": ("text/javascript; charset=utf-8", PackageResources.clacks_js),
        // At the root: a service worker controls only the paths below its own.
        "/sw.js": ("text/javascript; charset=utf-8", WebEndpoints.serviceWorker),
        "/manifest.webmanifest": ("application/manifest+json", PackageResources.manifest_webmanifest)
    ]

    /// The app's icons, drawn when first asked for (not at every start: drawing them takes longer
    /// than flapd takes to be ready).
    static let icons: [(path: String, bytes: @Sendable () -> [UInt8])] = [
        ("/web/icon-192.png", { AppIcons.any192 }),
        ("/web/icon-512.png", { AppIcons.any512 }),
        ("/web/icon-maskable-512.png", { AppIcons.maskable512 })
    ]

    /// Scripts and styles only from flapd itself, no framing by other sites.
    static let securityHeaders: HTTPFields = {
        var fields: HTTPFields = [
            .contentSecurityPolicy: "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
            .xContentTypeOptions: "nosniff",
            .cacheControl: "no-cache"
        ]
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { fields[referrerPolicy] = "no-referrer" }
        return fields
    }()

    /// Adds the page's routes (no key needed: it holds no secret; the API behind it does).
    /// With `authority`, also `/ca.crt` and `/install` (``AuthorityDownload``).
    public static func add<Context: RequestContext>(to router: Router<Context>, authority: AuthorityDownload? = nil) {
        authority?.add(to: router)
        for (path, file) in files {
            let tag = entityTag(file.bytes)
            router.get(RouterPath(path)) { request, _ in serve(file.bytes, type: file.type, tag: tag, to: request) }
        }
        for (path, bytes) in icons {
            router.get(RouterPath(path)) { request, _ in
                let png = bytes()
                return serve(png, type: "image/png", tag: entityTag(png), to: request)
            }
        }
        let glyphsTag = entityTag(glyphs)
        router.get("web/glyphs.json") { request, _ in serve(glyphs, type: "application/json", tag: glyphsTag, to: request) }
    }

    /// The file, or 304 when the browser has it already (it asks again each time: `no-cache`).
    static func serve(_ bytes: [UInt8], type: String, tag: String, to request: Request) -> Response {
        var headers = securityHeaders
        headers[.eTag] = tag
        if request.headers[.ifNoneMatch] == tag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A strong validator for the file's bytes (FNV-1a, 64 bits: the same for the same build).
    static func entityTag(_ bytes: [UInt8]) -> String {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.entityTag
    }

    /// How the page draws each code: its character, or its colour and the colour's name.
    static let glyphs: [UInt8] = {
        var characters: [String: String] = [:], colours: [String: String] = [:], names: [String: String] = [:]
        for value in 0...71 {
            guard let code = CharacterCode(value) else { continue }
            if let colour = code.colour {
                let (r, g, b) = colour == .black ? (0, 0, 0) : (Int(colour.rgb.red), Int(colour.rgb.green), Int(colour.rgb.blue))
                colours["\(value)"] = String(cFormat: "#%02lx%02lx%02lx", r, g, b)
                names["\(value)"] = colour.name
            } else if let character = code.character {
                characters["\(value)"] = String(character)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A board whose flap 62 is a heart draws that code otherwise; the page takes it per panel.
        var heartCharacters: [String: String] = [:]
        for value in 0...71 {
            guard let code = CharacterCode(value), let character = Flap62.heart.character(code), character != code.character else { continue }
            heartCharacters["\(value)"] = String(character)
        }
        struct Glyphs: Encodable {
            var characters, colours, names, heart: [String: String]
        }
        let table = Glyphs(characters: characters, colours: colours, names: names, heart: heartCharacters)
        return Array((try? encoder.encode(table)) ?? Data("{}".utf8))
    }()
}
