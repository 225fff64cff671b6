import FlapTLS
import Foundation
import TestSupport
import Testing

/// flapd over HTTPS, reached by curl: its own authority (trusted only when given), the authority's
/// download and install page on both ports, cookies for HTTPS only, pages asked for over plain
/// HTTP from another machine sent to HTTPS, and the user's own certificate instead.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct HTTPSServiceTests {
    /// curl's exit status, HTTP status, headers and body for `url`, with `options` first.
    func curl(_ options: [String], _ url: String) async throws -> (exit: Int32, status: Int, headers: String, body: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ProcessRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-o", folder.path + "/body", "-D", folder.path + "/headers",
                "-w", "%{http_code}"
            ] + options + [url])
        let read = { (name: String) in (try? String(contentsOfFile: folder.path + "/" + name, encoding: .utf8)) ?? "" }
        return (result.status, Int(result.stdoutText) ?? 0, read("headers"), read("body"))
    }

    @Test func itsOwnAuthorityIsTrustedWhereInstalledAndDownloadedFromEitherPort() async throws {
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound"])
        teardown { await flapd.stop() }
        let authority = flapd.stateDirectory + "/tls/ca.crt"
        let https = "https://localhost:\(flapd.httpsPort)"

        let trusted = try await curl(["--cacert", authority], https + "/healthz")
        #expect(trusted.exit == 0 && trusted.status == 200, "\(trusted)")
        let untrusted = try await curl([], https + "/healthz")
        #expect(untrusted.exit == 60, "without the authority curl refuses the certificate: \(untrusted)")
        let api = try await curl(["--cacert", authority, "-H", "Authorization: Bearer \(flapd.apiKey)"], https + "/v1/board")
        #expect(api.status == 200 && api.body.contains("\"panels\""))

        let pem = try String(contentsOfFile: authority, encoding: .utf8)
        for base in ["http://127.0.0.1:\(flapd.apiPort)", https] {
            let download = try await curl(["--cacert", authority], base + "/ca.crt")
            #expect(download.status == 200 && download.body == pem, "\(base)")
            #expect(download.headers.lowercased().contains("content-type: application/x-x509-ca-cert"))
        }
        let page = try await curl([], "http://127.0.0.1:\(flapd.apiPort)/install")
        #expect(page.status == 200)
        #expect(page.body.contains("https://127.0.0.1:\(flapd.httpsPort)/"), "the page links to the HTTPS port by the name used")
        #expect(page.body.contains("Certificate Trust Settings") && page.body.contains("CA certificate"), "iOS's and Android's steps")
        #expect(page.body.contains("<svg") && page.body.contains("QR code"), "a QR code of the download")

        let signIn = ["-H", "Content-Type: application/json", "--data-binary", #"{"key": "\#(flapd.apiKey)"}"#]
        let overTLS = try await curl(["--cacert", authority] + signIn, https + "/v1/session")
        #expect(overTLS.headers.contains("; Secure"), "\(overTLS.headers)")
        let plain = try await curl(signIn, "http://127.0.0.1:\(flapd.apiPort)/v1/session")
        #expect(plain.headers.contains("Set-Cookie") && !plain.headers.contains("Secure"))
        // The scheme is the connection's: a plain request naming an https:// target is still plain.
        let claimed = try await curl(
            signIn + ["--request-target", "https://127.0.0.1:\(flapd.apiPort)/v1/session"], "http://127.0.0.1:\(flapd.apiPort)/v1/session")
        #expect(claimed.headers.contains("Set-Cookie") && !claimed.headers.contains("Secure"), "\(claimed.headers)")
    }

    @Test func pagesAskedForOverPlainHTTPFromAnotherMachineGoToHTTPS() async throws {
        let address = try #require(
            NetworkAddresses.current().first { !$0.hasPrefix("127.") && !$0.contains(":") },
            "the test needs an IPv4 address besides loopback to come from")
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--listen", "0.0.0.0"])
        teardown { await flapd.stop() }
        let remote = "http://\(address):\(flapd.apiPort)"
        let page = try await curl([], remote + "/widget?size=small")
        #expect(page.status == 308)
        #expect(page.headers.contains("Location: https://\(address):\(flapd.httpsPort)/widget?size=small"), "\(page.headers)")
        for path in ["/ca.crt", "/install", "/healthz", "/tv", "/web/tv.js", "/web/board.js", "/web/api.js", "/web/outbox.js", "/web/glyphs.json"] {
            #expect(try await curl([], remote + path).status == 200, "\(path) stays on plain HTTP (a TV cannot trust the board's authority)")
        }
        // The owner's link for the TV: that view on the plain port, the viewer key in its fragment.
        let viewer = try String(contentsOfFile: flapd.stateDirectory + "/viewer-key", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let tv = try await curl(["-H", "Authorization: Bearer \(flapd.apiKey)"], remote + "/v1/viewer")
        let link = try JSONSerialization.jsonObject(with: Data(tv.body.utf8)) as? [String: Any]
        #expect(tv.status == 200 && link?["url"] as? String == "http://\(address):\(flapd.apiPort)/tv#key=\(viewer)", "\(tv.body.prefix(300))")
        #expect((link?["qrCode"] as? String)?.contains("<svg") == true)
        #expect(try await curl(["-H", "Authorization: Bearer \(viewer)"], remote + "/v1/viewer").status == 403, "the viewer key reads the board only")
        #expect(try await curl(["-H", "Authorization: Bearer \(flapd.apiKey)"], remote + "/v1/board").status == 200, "scripts keep the API")
        #expect(try await curl([], "http://127.0.0.1:\(flapd.apiPort)/").status == 200, "this machine keeps the page")
        let followed = try await curl(["-L", "--cacert", flapd.stateDirectory + "/tls/ca.crt"], remote + "/")
        #expect(followed.status == 200 && followed.body.contains("<html"), "the certificate names the machine's address")
        // A Host the board does not have is not echoed into the Location: the address reached is.
        let forged = try await curl(["-H", "Host: evil.example:\(flapd.apiPort)"], remote + "/")
        #expect(forged.status == 308)
        #expect(forged.headers.contains("Location: https://\(address):\(flapd.httpsPort)/"), "\(forged.headers)")
        #expect(!forged.headers.contains("evil.example"))
        // A name on the certificate is kept.
        let short = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let named = try await curl(["-H", "Host: \(short).local:\(flapd.apiPort)"], remote + "/widget")
        #expect(named.headers.contains("Location: https://\(short).local:\(flapd.httpsPort)/widget"), "\(named.headers)")
    }

    @Test func theUsersOwnCertificateIsServedInstead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-cert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let made = try await ProcessRunner.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=board.example.net",
                "-addext", "subjectAltName=DNS:board.example.net", "-days", "2", "-keyout", folder + "/board.key", "-out", folder + "/board.crt"
            ])
        #expect(made.status == 0, "\(made.stderrText)")
        try """
        [api]
        tls_certificate_file = "\(folder)/board.crt"
        tls_key_file = "\(folder)/board.key"
        """.write(toFile: folder + "/flapd.toml", atomically: true, encoding: .utf8)
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--config", folder + "/flapd.toml"])
        teardown { await flapd.stop() }
        let served = try await curl(
            ["--cacert", folder + "/board.crt", "--resolve", "board.example.net:\(flapd.httpsPort):127.0.0.1"],
            "https://board.example.net:\(flapd.httpsPort)/healthz")
        #expect(served.exit == 0 && served.status == 200, "\(served)")
        let download = try await curl([], "http://127.0.0.1:\(flapd.apiPort)/ca.crt")
        #expect(download.status == 404 && download.body.contains("tls_certificate_file"))
        #expect(!FileManager.default.fileExists(atPath: flapd.stateDirectory + "/tls/ca.key"), "no authority is made")
    }
}
