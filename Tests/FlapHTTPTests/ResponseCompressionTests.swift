import Foundation
import TestSupport
import Testing

/// The page and large JSON answers go gzip-compressed to a client that takes it (curl here), and
/// the compressed files still answer 304 to the tag they were given.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct ResponseCompressionTests {
    struct Answer {
        var headers: [String: String]
        var body: Data
    }

    /// A GET through curl, without letting it undo the compression: the head and the bytes as sent.
    static func get(_ url: String, _ headers: [String] = []) async throws -> Answer {
        let head = FileManager.default.temporaryDirectory.appendingPathComponent("head-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: head) }
        let result = try await ProcessRunner.run("/usr/bin/curl", ["-s", "-D", head] + headers.flatMap { ["-H", $0] } + [url])
        var fields: [String: String] = [:]
        for line in (try String(contentsOfFile: head, encoding: .utf8)).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { fields["status"] = String(line.split(separator: " ")[1]); continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(headers: fields, body: result.stdout)
    }

    static func gunzip(_ data: Data) async throws -> Data {
        try await ProcessRunner.run("/bin/gzip", ["-dc"], input: data).stdout
    }

    @Test func thePageScriptsAndLargeAnswersAreCompressedWhenAccepted() async throws {
        let flapd = try await FlapdProcess.start()
        teardown { await flapd.stop() }
        let base = "http://127.0.0.1:\(flapd.apiPort)"
        let key = "Authorization: Bearer \(flapd.apiKey)"

        let plain = try await Self.get(base + "/web/status.js")
        #expect(plain.headers["content-encoding"] == nil)
        let compressed = try await Self.get(base + "/web/status.js", ["Accept-Encoding: gzip, deflate"])
        #expect(compressed.headers["content-encoding"] == "gzip" && compressed.headers["vary"] == "Accept-Encoding")
        #expect(try await Self.gunzip(compressed.body) == plain.body)
        #expect(compressed.body.count * 2 < plain.body.count, "\(compressed.body.count) of \(plain.body.count) bytes")

        // The compressed file's tag is its own, and asked again it is 304 with that tag.
        let tag = try #require(compressed.headers["etag"])
        #expect(tag.hasSuffix("-gzip\"") && tag != plain.headers["etag"])
        let again = try await Self.get(base + "/web/status.js", ["Accept-Encoding: gzip", "If-None-Match: \(tag)"])
        #expect(again.headers["status"] == "304" && again.headers["etag"] == tag && again.body.isEmpty)

        let description = try await Self.get(base + "/v1/openapi.json", ["Accept-Encoding: gzip"])
        #expect(description.headers["content-encoding"] == "gzip", "JSON over 1 KiB")
        #expect(try JSONSerialization.jsonObject(with: try await Self.gunzip(description.body)) is [String: Any])
        let small = try await Self.get(base + "/v1/sound", ["Accept-Encoding: gzip", key])
        #expect(small.headers["content-encoding"] == nil && small.body.count <= 1024, "small answers go as they are")
        let refused = try await Self.get(base + "/web/status.js", ["Accept-Encoding: gzip;q=0, identity"])
        #expect(refused.headers["content-encoding"] == nil)
        #expect(await flapd.terminate() == 0)
    }
}
