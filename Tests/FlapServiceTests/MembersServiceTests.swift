import Foundation
import TestSupport
import Testing

/// One identity per person, over HTTP against a real flapd: the owner invites, the member's link
/// signs them in once, they post as themselves only, clear only their own slot, read only their
/// own receipts, touch no setting; a key for their scripts; revoked, they are out at once.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MembersServiceTests {
    func signedIn(_ flapd: any RunningFlapd, with body: [String: Any]) async throws -> (HTTPClient, [String: Any]) {
        let base = "http://127.0.0.1:\(flapd.apiPort)"
        let reply = try await HTTPClient(base: base).post("/v1/session", json: body)
        #expect(reply.status == 200, "\(reply.text)")
        let cookie = try #require(reply.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        return (HTTPClient(base: base, headers: ["Cookie": cookie, "Origin": base]), reply.object)
    }

    static func token(of url: String) -> String { String(url.split(separator: "#").last ?? "") }

    @Test func aMemberIsTheirOwnSenderAndNothingMore() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        let owner = flapd.api
        #expect(try await owner.postJSON("/v1/messages", #"{"text": "OWNER HERE", "sender": {"id": "owner"}}"#).status == 202)

        let invited = try await owner.postJSON("/v1/members", #"{"name": "Mum"}"#)
        #expect(invited.status == 201, "\(invited.text)")
        let member = try #require(invited.object["member"] as? [String: Any])
        let invitation = try #require(invited.object["invitation"] as? [String: Any])
        #expect(member["sender"] as? String == "mum" && member["name"] as? String == "Mum")
        let url = try #require(invitation["url"] as? String)
        #expect(url.hasPrefix("https://") && url.contains(".local:\(flapd.httpsPort)/join#"), "asked from this machine: its .local name, \(url)")
        #expect((invitation["qrCode"] as? String)?.hasPrefix("<svg") == true)
        // A sender already someone's is a conflict with the members there are, not a malformed request.
        #expect(try await owner.postJSON("/v1/members", #"{"name": "Mum again", "sender": "mum"}"#).status == 409)
        #expect(try await owner.postJSON("/v1/members", #"{"name": "  "}"#).status == 400)
        // A name with a right-to-left override, or 10 KB of name, is refused saying why.
        let bidi = try await owner.postJSON("/v1/members", #"{"name": "Mum\u202etxt.exe"}"#)
        #expect(bidi.status == 400 && bidi.error.contains("U+202E at position 4 is a direction control"), "\(bidi.text)")
        let long = try await owner.postJSON("/v1/members", #"{"name": "\#(String(repeating: "M", count: 10_000))"}"#)
        #expect(long.status == 413 && long.error.contains("a member's name is at most 40 characters"), "\(long.text)")
        let unnamed = try await owner.postJSON("/v1/members", ##"{"name": "#/+"}"##)
        #expect(
            unnamed.status == 201 && (unnamed.object["member"] as? [String: Any])?["sender"] as? String == "member", "a name that gives no sender id")

        let (mum, session) = try await signedIn(flapd, with: ["invitation": Self.token(of: url)])
        #expect(session["role"] as? String == "member")
        #expect(
            try await HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)").post("/v1/session", json: ["invitation": Self.token(of: url)]).status
                == 401,
            "a link works once")

        // Posts as herself; not as the owner.
        let sent = try await mum.postJSON("/v1/messages", #"{"text": "HELLO FROM MUM"}"#)
        #expect(sent.status == 202, "\(sent.text)")
        let asOwner = try await mum.postJSON("/v1/messages", #"{"text": "FAKE", "sender": {"id": "owner"}}"#)
        #expect(asOwner.status == 403 && asOwner.text.contains("sender.id"), "\(asOwner.text)")
        let slots = try await mum.get("/v1/slots").text
        #expect(slots.contains(#""sender":"mum""#) && slots.contains("HELLO FROM MUM"))
        // Clears only her own slot.
        #expect(try await mum.delete("/v1/slots/owner").status == 403)
        #expect(try await owner.get("/v1/slots").text.contains("OWNER HERE"))
        // Reads only her own receipts.
        let receipts = try #require(try await mum.get("/v1/receipts").object["receipts"] as? [[String: Any]])
        #expect(!receipts.isEmpty && receipts.allSatisfy { $0["sender"] as? String == "mum" }, "\(receipts)")
        #expect(try await mum.get("/v1/receipts?sender=owner").status == 403)
        // Nothing that is the owner's.
        for (method, path) in [
            ("GET", "/v1/members"), ("POST", "/v1/members"), ("PATCH", "/v1/sound"), ("POST", "/v1/schedules"), ("GET", "/v1/sensors"),
            ("POST", "/v1/pairing"), ("GET", "/v1/queue")
        ] {
            let reply = try await mum.request(
                method, path, body: method == "GET" ? nil : Data("{}".utf8), headers: ["Content-Type": "application/json"])
            #expect(
                reply.status == 403 && reply.error.contains("a member may call POST /v1/messages"), "\(method) \(path): \(reply.status)")
        }

        // A key for her scripts, shown once.
        let memberID = try #require(member["id"] as? String)
        let key = try #require(try await owner.post("/v1/members/\(memberID)/keys", json: [:]).object["key"] as? String)
        let script = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(key)"])
        #expect(try await script.postJSON("/v1/messages", #"{"text": "FROM MUMS SCRIPT"}"#).status == 202)
        #expect(try await script.get("/v1/members").status == 403)
        let access = try String(contentsOfFile: flapd.stateDirectory + "/access.json", encoding: .utf8)
        #expect(!access.contains(key) && !access.contains(Self.token(of: url)), "only digests are kept")
        let said = flapd.said
        let status = try await owner.get("/v1/status").text + (try await owner.get("/metrics").text)
        for secret in [key, Self.token(of: url)] {
            #expect(!said.contains(secret) && !status.contains(secret), "no secret in the log, the status or the metrics")
        }

        // Revoked: out at once, by cookie and by key; her open page is told on its live stream, and
        // her next request says why, in words for her. Her message is cleared, as the owner chose.
        let cookie = try #require(mum.headers["Cookie"])
        let stream = try ChildProcess(
            "/usr/bin/curl", ["-sN", "--max-time", "60", "-H", "Cookie: \(cookie)", "http://127.0.0.1:\(flapd.apiPort)/v1/events"])
        teardown { await stream.stop() }
        _ = try await eventually(every: .milliseconds(50)) { stream.stdout.contains("event: board") }
        let before = try await owner.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(before.contains { $0["sender"] as? String == "mum" }, "her message is on the board: \(before)")
        #expect(try await owner.delete("/v1/members/\(memberID)?message=sometimes").status == 400)
        let removed = try await owner.delete("/v1/members/\(memberID)?message=clear")
        #expect(
            removed.status == 200 && removed.object["message"] as? String == "cleared" && removed.object["undoUntil"] is String, "\(removed.text)")
        _ = try await eventually(every: .milliseconds(50)) { stream.stdout.contains("event: signed-out") }
        #expect(stream.stdout.contains("The board's owner removed you (Mum)"), "\(stream.stdout)")
        let refused = try await mum.get("/v1/board")
        #expect(
            refused.status == 401 && refused.object["reason"] as? String == "removed" && refused.error.contains("ask them for a new link"),
            "\(refused.text)")
        #expect((try await mum.get("/v1/session").object["ended"] as? [String: Any])?["name"] as? String == "Mum")
        #expect(try await script.get("/v1/board").status == 401)
        let after = try await owner.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(!after.contains { $0["sender"] as? String == "mum" }, "her message was cleared: \(after)")
        let listed = try await owner.get("/v1/members").object
        #expect((listed["members"] as? [[String: Any]])?.contains { $0["id"] as? String == memberID } == false)
        #expect((listed["removed"] as? [[String: Any]])?.first?["name"] as? String == "Mum")

        // Taken back: she and her script are in again, her page's next request works.
        let restored = try await owner.post("/v1/members/\(memberID)/restore", json: [:])
        #expect(restored.status == 200 && restored.object["name"] as? String == "Mum", "\(restored.text)")
        #expect(try await mum.get("/v1/board").status == 200)
        #expect(try await script.get("/v1/board").status == 200)
        #expect(try await owner.post("/v1/members/\(memberID)/restore", json: [:]).status == 404)
    }

    @Test func aPairingLinkSignsTheOwnersPhoneInOnce() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let pairing = try await flapd.api.post("/v1/pairing", json: [:])
        #expect(pairing.status == 201)
        let url = try #require(pairing.object["url"] as? String)
        let (phone, session) = try await signedIn(flapd, with: ["invitation": Self.token(of: url)])
        #expect(session["role"] as? String == "owner")
        #expect(try await phone.get("/v1/members").status == 200)
        // Guessing links is refused unread after 20 wrong ones.
        let stranger = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)")
        for _ in 0..<20 { _ = try await stranger.post("/v1/session", json: ["invitation": String(repeating: "x", count: 43)]) }
        let refused = try await stranger.post("/v1/session", json: ["invitation": String(repeating: "y", count: 43)])
        #expect(refused.status == 429 && refused.headers["retry-after"] != nil)
    }
}
