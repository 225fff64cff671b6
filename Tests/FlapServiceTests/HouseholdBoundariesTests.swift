import Foundation
import TestSupport
import Testing

/// What a member acting in bad faith, or a stranger's `Host` header, found against a running
/// flapd, each with the input that found it: ids a member chose that collided with another's
/// message, links named by any `Host`, a member's temporary message they could not end, names
/// they could put on their messages, and the smaller ones.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct HouseholdBoundariesTests {
    /// A member named `name` and a client holding their key.
    func member(_ flapd: InProcessFlapd, _ name: String) async throws -> HTTPClient {
        let invited = try await flapd.api.postJSON("/v1/members", #"{"name": "\#(name)"}"#)
        let id = try #require((invited.object["member"] as? [String: Any])?["id"] as? String, "\(invited.text)")
        let key = try #require(try await flapd.api.post("/v1/members/\(id)/keys", json: [:]).object["key"] as? String)
        return HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer \(key)"])
    }

    /// curl's status and body for `path` on the native API's port, as the owner, with `headers` (and `body`, for a POST).
    func curl(
        _ flapd: InProcessFlapd, _ method: String, _ path: String, headers: [String], body: String = "{}"
    ) async throws -> (status: Int, body: String) {
        let result = try await ProcessRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-X", method, "-w", "\n%{http_code}", "-H", "Authorization: Bearer \(flapd.apiKey)",
                "-H", "Content-Type: application/json"
            ] + (method == "POST" ? ["-d", body] : [])
                + headers.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(flapd.apiPort)\(path)"])
        let lines = result.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func aMembersChosenIdNeitherMeetsNorRevealsAnotherSendersMessage() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        let dads = try await flapd.api.postJSON("/v1/messages", #"{"id": "dads-note", "sender": {"id": "dad"}, "text": "DAD"}"#)
        #expect(dads.status == 202, "\(dads.text)")
        let mum = try await member(flapd, "Mum")

        // Dad's id from Mum: a message of her own, not "a duplicate" of his.
        let posted = try await mum.postJSON("/v1/messages", #"{"id": "dads-note", "text": "HELLO"}"#)
        #expect(posted.status == 202 && posted.object["duplicate"] == nil, "\(posted.text)")
        let own = try #require(posted.object["id"] as? String)
        #expect(own == "dads-note~mum", "her id is kept as hers: \(own)")
        // Sent again, it is her own duplicate; her receipt answers to the id she chose.
        let again = try await mum.postJSON("/v1/messages", #"{"id": "dads-note", "text": "HELLO"}"#)
        #expect(again.status == 200 && again.object["duplicate"] as? Bool == true && again.object["id"] as? String == own, "\(again.text)")
        #expect((try await mum.get("/v1/receipts/dads-note")).object["sender"] as? String == "mum")
        // Dad's message is untouched, and still his.
        let dadsReceipt = try await flapd.api.get("/v1/receipts/dads-note")
        #expect(dadsReceipt.object["sender"] as? String == "dad" && dadsReceipt.object["status"] as? String != "superseded", "\(dadsReceipt.text)")

        // The owner's message under an id another sender has: the second sender's own too.
        let other = try await flapd.api.postJSON("/v1/messages", #"{"id": "dads-note", "sender": {"id": "kitchen"}, "text": "KITCHEN"}"#)
        #expect(other.status == 202 && other.object["id"] as? String == "dads-note~kitchen", "\(other.text)")
    }

    @Test func linksAreNamedOnlyByTheCertificate() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        for (method, path, body) in [("POST", "/v1/pairing", "{}"), ("POST", "/v1/members", #"{"name": "Gran"}"#), ("GET", "/v1/viewer", "")] {
            let reply = try await curl(flapd, method, path, headers: ["Host: evil.com"], body: body)
            #expect([200, 201].contains(reply.status) && reply.body.contains("://"), "\(path): \(reply.status) \(reply.body)")
            #expect(!reply.body.contains("evil.com"), "\(path) named a link by the request's Host: \(reply.body)")
            #expect(reply.body.contains(".local:"), "\(path): the machine's own name: \(reply.body)")
        }
        let huge = try await curl(flapd, "GET", "/v1/board", headers: ["Host: " + String(repeating: "a", count: 60_000)])
        #expect(huge.status == 431 && huge.body.contains("the Host header is 60000 bytes long"), "\(huge.status) \(huge.body)")
        #expect(try await flapd.api.get("/v1/board").status == 200)
    }

    @Test func aMemberEndsTheirOwnTemporaryMessageAndNamesOnlyThemselves() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        let mum = try await member(flapd, "Mum")
        let alert = try await mum.postJSON("/v1/messages", #"{"text": "BACK SOON", "duration": 43200}"#)
        #expect(alert.status == 202, "\(alert.text)")
        let ended = try await mum.request("DELETE", "/v1/temporary")
        #expect(ended.status == 204, "\(ended.status) \(ended.text)")

        // Her messages carry the name the owner gave her, and no other.
        let asDad = try await mum.postJSON("/v1/messages", #"{"sender": {"id": "mum", "name": "Dad"}, "text": "HI"}"#)
        #expect(asDad.status == 403 && asDad.text.contains("sender.name"), "\(asDad.text)")
        let long = try await mum.postJSON("/v1/messages", #"{"sender": {"name": "\#(String(repeating: "M", count: 5_000))"}, "text": "HI"}"#)
        #expect(long.status == 403, "\(long.status)")
        #expect(try await mum.postJSON("/v1/messages", #"{"sender": {"name": "Mum"}, "text": "HI"}"#).status == 202)
        let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.first { $0["sender"] as? String == "mum" }?["senderName"] as? String == "Mum", "\(slots)")
        // A sender that is not an object is refused as it is for the owner.
        let plain = try await mum.postJSON("/v1/messages", #"{"sender": "dad", "text": "HI"}"#)
        #expect(plain.status == 400 && plain.text.contains("sender"), "\(plain.status) \(plain.text)")
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"sender": "dad", "text": "HI"}"#).status == 400)
    }

    @Test func aMemberHearsTheClackAndSeesOnlyWhatIsTheirs() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--rate-limit", "0"])
        teardown { await flapd.stop() }
        let later = Date().addingTimeInterval(3600).formatted(.iso8601)
        #expect(try await flapd.api.postJSON("/v1/messages", #"{"sender": {"id": "dad"}, "text": "LATER", "notBefore": "\#(later)"}"#).status == 202)
        let mum = try await member(flapd, "Mum")
        let clack = try await mum.get("/v1/sound/clack.wav")
        #expect(clack.status == 200 && clack.body.prefix(4) == Data("RIFF".utf8), "\(clack.status)")

        let owners = try await flapd.api.get("/v1/status").object
        #expect((owners["storage"] as? [String: Any])?["directory"] as? String == flapd.stateDirectory, "\(owners["storage"] ?? "")")
        #expect((owners["time"] as? [String: Any])?["nextScheduled"] != nil, "\(owners["time"] ?? "")")
        let hers = try await mum.get("/v1/status")
        #expect(hers.status == 200)
        #expect(!hers.text.contains(flapd.stateDirectory), "a member is not shown the state directory: \(hers.text)")
        #expect((hers.object["time"] as? [String: Any])?["nextScheduled"] == nil, "nor when Dad's message is due: \(hers.text)")
    }
}
