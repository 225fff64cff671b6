import Foundation
import TestSupport
import Testing

/// Signing in with the API key for a session cookie, and what a cookie may not do: change
/// anything from another site. Every state-changing endpoint is tried.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct SessionTests {
    func client(_ flapd: any RunningFlapd, cookie: String? = nil, origin: String? = nil) -> HTTPClient {
        var headers: [String: String] = [:]
        if let cookie { headers["Cookie"] = cookie }
        if let origin { headers["Origin"] = origin }
        return HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: headers)
    }

    @Test func aSessionCookieStandsForTheKeyButNotForAnotherSite() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let anonymous = client(flapd)
        #expect(try await anonymous.post("/v1/session", json: ["key": "not-the-key"]).status == 401)
        #expect(try await anonymous.get("/v1/slots").status == 401)
        #expect(try await anonymous.get("/v1/session").object["signedIn"] as? Bool == false)
        let signedIn = try await anonymous.post("/v1/session", json: ["key": flapd.apiKey])
        #expect(signedIn.status == 200)
        let setCookie = try #require(signedIn.headers["set-cookie"])
        #expect(
            setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Max-Age=7776000"),
            "90 days: a session lasts while it is used")
        let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
        #expect(!setCookie.contains(flapd.apiKey))

        let own = client(flapd, cookie: cookie, origin: "http://127.0.0.1:\(flapd.apiPort)")
        #expect(try await own.get("/v1/session").object["signedIn"] as? Bool == true)
        #expect(try await client(flapd, cookie: cookie).get("/v1/slots").status == 200, "reading needs no origin")
        let sent = try await own.postJSON("/v1/messages", #"{"id": "c1", "text": "FROM THE PAGE"}"#)
        #expect(sent.status == 202)

        // Every state-changing endpoint refuses the cookie without the page's origin, or with another's.
        let changes: [(String, String)] = [
            ("POST", "/v1/messages"), ("DELETE", "/v1/messages/someid"), ("POST", "/v1/schedules"), ("PUT", "/v1/schedules/x"),
            ("DELETE", "/v1/schedules/x"), ("DELETE", "/v1/slots/someone"), ("POST", "/v1/panels/main/calibration"),
            ("POST", "/v1/room"), ("DELETE", "/v1/room"), ("POST", "/v1/queue/1/retry"), ("DELETE", "/v1/queue/1"),
            ("PATCH", "/v1/sound"), ("PUT", "/v1/templates/x"), ("POST", "/v1/templates/x/send"), ("POST", "/v1/templates/x/rename"),
            ("DELETE", "/v1/templates/x")
        ]
        for (method, path) in changes {
            for forged in [client(flapd, cookie: cookie), client(flapd, cookie: cookie, origin: "http://evil.example")] {
                let reply = try await forged.request(method, path, body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
                #expect(reply.status == 403, "\(method) \(path): \(reply.status)")
            }
        }

        // Another site cannot sign the browser out either.
        for forged in [client(flapd, cookie: cookie), client(flapd, cookie: cookie, origin: "http://evil.example")] {
            #expect(try await forged.request("DELETE", "/v1/session").status == 403)
        }
        #expect(try await own.get("/v1/session").object["signedIn"] as? Bool == true)

        // Signed out: the cookie is worth nothing.
        let out = try await own.request("DELETE", "/v1/session")
        #expect(out.status == 204 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        #expect(try await own.get("/v1/slots").status == 401)
        #expect(try await own.get("/v1/session").object["signedIn"] as? Bool == false)
        #expect(!flapd.said.contains(flapd.apiKey))
    }
}
