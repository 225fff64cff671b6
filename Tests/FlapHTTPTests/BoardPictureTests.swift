import Foundation
import TestSupport
import Testing

/// The board as a picture for dashboards, and the viewer key that may read it and nothing else.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct BoardPictureTests {
    static func flapd() async throws -> FlapdProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("flapd.toml").path
        try "[api]\nviewer_key = \"view-key\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        return try await FlapdProcess.start(arguments: ["--config", file])
    }

    @Test func theViewerKeyReadsTheBoardAndIsRefusedEverywhereElse() async throws {
        let flapd = try await Self.flapd()
        teardown { await flapd.stop() }
        let output = try await PythonPeer.runScript("viewer_key_walk.py", arguments: ["\(flapd.apiPort)", "view-key", flapd.apiKey], input: Data())
        let seen = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Int])
        let reads: Set = ["GET /v1/board", "GET /v1/board.png", "GET /v1/board.svg", "GET /v1/events", "GET /v1/sound/clack.wav"]
        // Public, or checked by their own rule: the description, and signing a browser in with the full key.
        let ownRules: Set = [
            "GET /v1/openapi.json", "GET /v1/session", "POST /v1/session", "DELETE /v1/session", "GET /v1/setup", "POST /v1/setup/claim"
        ]
        #expect(seen.count > 40, "the walk reached every operation: \(seen.count)")
        for (operation, status) in seen.sorted(by: { $0.key < $1.key }) where !operation.hasPrefix("basic") {
            if reads.contains(operation) {
                #expect(status == 200, "\(operation): \(status)")
            } else if !ownRules.contains(operation) {
                #expect(status == 403, "\(operation): \(status)")
            }
        }
        for slot in ["GET /v1/slots", "GET /v1/receipts", "GET /v1/sensors", "GET /v1/room", "POST /v1/messages", "PATCH /v1/sound"] {
            #expect(seen[slot] == 403, "\(slot)")
        }
        #expect(seen["basic viewer GET /v1/board.png"] == 200)
        #expect(seen["basic viewer POST /v1/messages"] == 403)
        #expect(seen["basic key POST /v1/messages"] == 202, "the API key as Basic's password")
        #expect(seen["basic wrong GET /v1/board"] == 401)
        #expect(await flapd.terminate() == 0)
    }

    @Test func aPictureIsAPNGOrSVGOfThePanelAndUnchangedCosts304() async throws {
        let flapd = try await Self.flapd()
        teardown { await flapd.stop() }
        _ = try await flapd.api.postJSON("/v1/messages", #"{"text": "PICTURE {63} OK"}"#)
        let settled = try await eventually(every: .milliseconds(100)) {
            let panel = (try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first
            return (panel?["text"] as? [String])?.contains { $0.contains("PICTURE r OK") } == true && panel?["moving"] as? Bool == false
        }
        #expect(settled)
        let viewer = HTTPClient(base: "http://127.0.0.1:\(flapd.apiPort)", headers: ["Authorization": "Bearer view-key"])
        // The viewer sees the board, not which message (and so whose) it is; the key sees both.
        let seenByViewer = (try await viewer.get("/v1/board").object["panels"] as? [[String: Any]])?.first
        #expect(seenByViewer?["text"] != nil && seenByViewer?["message"] == nil, "\(String(describing: seenByViewer))")
        #expect((try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]])?.first?["message"] as? String != nil)
        let png = try await viewer.get("/v1/board.png?width=600")
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        #expect(png.body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let width = png.body.subdata(in: 16..<20).reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 600)
        let tag = try #require(png.headers["etag"])
        let again = try await viewer.request("GET", "/v1/board.png?width=600", headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == tag)
        let otherSize = try await viewer.request("GET", "/v1/board.png?width=300", headers: ["If-None-Match": tag])
        #expect(otherSize.status == 200, "another size is another picture")

        let svg = try await viewer.get("/v1/board.svg")
        #expect(svg.status == 200 && svg.headers["content-type"] == "image/svg+xml")
        #expect(svg.text.hasPrefix("<svg ") && svg.text.contains(">P</text>") && svg.text.contains("fill=\"#"))
        #expect(svg.text.contains("aria-label=\"") && svg.text.contains("PICTURE r OK"))

        // The board changes: the old tag no longer matches.
        _ = try await flapd.api.postJSON("/v1/messages", #"{"text": "CHANGED", "sender": {"id": "other"}}"#)
        let changed = try await eventually(every: .milliseconds(100)) {
            try await viewer.request("GET", "/v1/board.png?width=600", headers: ["If-None-Match": tag]).status == 200
        }
        #expect(changed)
        #expect(try await viewer.get("/v1/board.png?width=8").status == 400)
        // Narrower than the smallest drawing of a 6×22 board (131 pixels): a thumbnail, shrunk.
        let thumbnail = try await viewer.get("/v1/board.png?width=16")
        #expect(thumbnail.status == 200 && thumbnail.body.subdata(in: 16..<20).reduce(0) { $0 << 8 | Int($1) } == 16)
        #expect(try await viewer.get("/v1/board.png?panel=attic").text.contains("the panels are main"))
        #expect(await flapd.terminate() == 0)
    }
}
