import Foundation
import TestSupport
import Testing

/// The page's files as flapd serves them (WebPageBrowserTests drives the page in a real browser).
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct WebPageTests {
    @Test func thePageAndItsModulesAreServedFromFlapdAloneWithNoSecretInThem() async throws {
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let browser = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)")
        let page = try await browser.get("/")
        #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        #expect(page.text.contains(#"<script type="module" src="/web/app.js">"#) && page.text.contains(#"<label for="key">API key</label>"#))
        var everything = page.text
        // Every module the page imports, followed from app.js: each is served.
        var waiting = ["/web/app.js", "/web/style.css", "/web/glyphs.json", "/favicon.ico"], fetched: Set<String> = []
        while let path = waiting.popLast() {
            guard fetched.insert(path).inserted else { continue }
            let file = try await browser.get(path)
            #expect(file.status == 200, "\(path)")
            everything += file.text
            // Only the endpoints flapd writes from its table spell the API's paths.
            if path != "/web/endpoints.js" { #expect(!file.text.contains("\"/v1/") && !file.text.contains("`/v1/"), "\(path) spells an API path") }
            for match in file.text.matches(of: /from "(\/web\/[a-z]+\.js)"/) { waiting.append(String(match.output.1)) }
        }
        #expect(fetched.count >= 10, "\(fetched)")
        let endpoints = try await browser.get("/web/endpoints.js").text
        #expect(endpoints.contains(#"sendMessage: endpoint("POST", "/v1/messages"),"#), "\(endpoints.prefix(500))")
        #expect(try await browser.get("/sw.js").text.hasPrefix(#"const KEPT = ["/v1/board", "/v1/session", "/v1/slots"];"#))
        // Nothing from elsewhere (the SVG namespace is a name, not a fetch), and no secret.
        everything = everything.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!everything.contains("http://") && !everything.contains("https://") && !everything.contains("//cdn"))
        #expect(!everything.contains(flapd.apiKey))
        // Asked again with its tag, a file the browser has is not sent twice.
        let tag = try #require(page.headers["etag"])
        #expect(try await browser.request("GET", "/", headers: ["If-None-Match": tag]).status == 304)
        #expect(try await browser.request("GET", "/", headers: ["If-None-Match": "\"other\""]).status == 200)
        let glyphs = try #require(try await browser.get("/web/glyphs.json").json as? [String: Any])
        #expect((glyphs["characters"] as? [String: String])?["1"] == "A" && (glyphs["colours"] as? [String: String])?["66"] == "#009a44")
        #expect((glyphs["names"] as? [String: String])?["63"] == "red")
        // A panel whose flap 62 is a heart (its `flap62` in /v1/board) draws that code so.
        #expect((glyphs["heart"] as? [String: String]) == ["62": "♥"] && (glyphs["characters"] as? [String: String])?["62"] == "°")
    }
}
