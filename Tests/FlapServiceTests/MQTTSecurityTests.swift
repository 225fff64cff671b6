import Foundation
import TestSupport
import Testing

/// flapd and a broker that wants TLS (with a CA the test makes) or a password.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct MQTTSecurityTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-sec-\(UUID().uuidString)").path

    func run(_ program: String, _ arguments: [String]) async throws {
        let result = try await ProcessRunner.run(program, arguments)
        guard result.status == 0 else { throw PeerError("\(program) \(arguments.joined(separator: " ")): \(result.stderrText)") }
    }

    /// A CA, and a server certificate for 127.0.0.1 signed by it.
    func makeCertificates() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let d = directory
        try await run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=VestaWidget test CA",
                "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.crt"
            ])
        try await run(
            "/usr/bin/openssl",
            ["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr"])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(toFile: "\(d)/san.ext", atomically: true, encoding: .utf8)
        try await run(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.crt", "-CAkey", "\(d)/ca.key", "-CAcreateserial",
                "-days", "1", "-extfile", "\(d)/san.ext", "-out", "\(d)/server.crt"
            ])
    }

    func configuration(_ text: String) throws -> String {
        let path = directory + "/flapd-\(UUID().uuidString.prefix(6)).toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func waitForLog(_ flapd: any RunningFlapd, _ text: String) async throws -> Bool {
        try await eventually { flapd.said.contains(text) }
    }

    @Test func tlsWithTheTestCA() async throws {
        try await makeCertificates()
        let tlsPort = try MosquittoBroker.freePort()
        let broker = try await MosquittoBroker.start(
            extraConfiguration: """
                listener \(tlsPort) 127.0.0.1
                cafile \(directory)/ca.crt
                certfile \(directory)/server.crt
                keyfile \(directory)/server.key
                """)
        teardown { await broker.stop() }
        let good = try configuration(
            """
            [mqtt]
            url = "mqtts://127.0.0.1:\(tlsPort)"
            ca_file = "\(directory)/ca.crt"
            device_id = "secure"
            """)
        let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--config", good])
        teardown { await flapd.stop() }
        #expect(try await waitForLog(flapd, "connected to the MQTT broker broker=127.0.0.1:\(tlsPort)"))
        let published = try await ProcessRunner.run(
            "/usr/bin/mosquitto_pub",
            [
                "-p", "\(tlsPort)", "--cafile", "\(directory)/ca.crt", "-q", "1",
                "-t", "vestawidget/secure/message", "-m", #"{"id": "t1", "text": "TLS"}"#
            ])
        #expect(published.status == 0, "\(published.stderrText)")
        _ = try await eventually(every: .milliseconds(20)) { try await flapd.api.get("/v1/receipts/t1").status == 200 }
        #expect(try await flapd.api.get("/v1/receipts/t1").status == 200)

        // A CA that did not sign the broker's certificate: refused, said, retried; flapd stays up.
        try await run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=other",
                "-keyout", "\(directory)/other.key", "-out", "\(directory)/other.crt"
            ])
        let wrong = try configuration(
            """
            [mqtt]
            url = "mqtts://127.0.0.1:\(tlsPort)"
            ca_file = "\(directory)/other.crt"
            device_id = "untrusting"
            """)
        let refused = try await InProcessFlapd.start(arguments: ["--no-sound", "--config", wrong])
        teardown { await refused.stop() }
        #expect(try await waitForLog(refused, "cannot reach the MQTT broker; retrying"))
        #expect(try await refused.api.get("/v1/status").status == 200)
    }

    @Test func wrongCredentialsAreRefusedAndSaidRightOnesConnect() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let passwords = directory + "/passwords"
        try await run("/usr/bin/mosquitto_passwd", ["-c", "-b", passwords, "flapd", "s3cret"])
        let lockedBroker = try await MosquittoBroker.startLocked(passwordFile: passwords)
        teardown { await lockedBroker.stop() }
        for (password, device, expected) in [
            ("wrong", "w", "the MQTT broker refused the connection"), ("s3cret", "r", "connected to the MQTT broker")
        ] {
            try "\(password)\n".write(toFile: directory + "/pw-\(device)", atomically: true, encoding: .utf8)
            let config = try configuration(
                """
                [mqtt]
                url = "mqtt://127.0.0.1:\(lockedBroker.port)"
                username = "flapd"
                password_file = "\(directory)/pw-\(device)"
                device_id = "\(device)"
                """)
            let flapd = try await InProcessFlapd.start(arguments: ["--no-sound", "--config", config])
            #expect(try await waitForLog(flapd, expected), "\(flapd.said)")
            #expect(!flapd.said.contains(password))
            await flapd.stop()
        }
    }
}
