import FlapEndpoints
import HTTPTypes

/// The API's endpoints as the page calls them, written from flapd's endpoint table so the page
/// spells no path of its own: `/web/endpoints.js`, and the answers the service worker keeps.
enum WebEndpoints {
    /// `/web/endpoints.js`: `E.receipt(id)` is `{ method: "GET", target: "/v1/receipts/…" }`, each
    /// value escaped to stay one segment; a last argument that is an object gives the query.
    static let module: [UInt8] = {
        let entries = Endpoint.all.map { "  \($0.name): endpoint(\(quoted($0.method.rawValue)), \(quoted($0.path)))," }
        let text = """
            // flapd's API, written by flapd from its endpoint table (the OpenAPI description's operationIds).
            function endpoint(method, path) {
              return (...values) => {
                const query = typeof values[values.length - 1] === "object" ? new URLSearchParams(values.pop()).toString() : "";
                const target = path.replace(/\\{[^}]*\\}/g, () => encodeURIComponent(values.shift() ?? ""));
                return { method, target: query ? `${target}?${query}` : target };
              };
            }

            export const E = Object.freeze({
            \(entries.joined(separator: "\n"))
            });

            """
        return Array(text.utf8)
    }()

    /// The answers the installed app keeps as last seen, to show offline: the board, who is
    /// signed in, and the slots.
    static let keptOffline: [Endpoint] = [.board, .session, .slots]

    /// The service worker (`sw.js`), with the paths it keeps before it.
    static let serviceWorker: [UInt8] = {
        let kept = keptOffline.map { quoted($0.path) }.joined(separator: ", ")
        return Array("const KEPT = [\(kept)];\n".utf8) + PackageResources.sw_js
    }()

    /// `text` as a JavaScript string literal.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
