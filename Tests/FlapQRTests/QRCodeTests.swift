import FlapQR
import Foundation
import TestSupport
import Testing

/// QR codes as flapctl prints them and the page shows them, read back by Debian's zbarimg.
@Suite struct QRCodeTests {
    static func read(_ terminalText: String) async throws -> String {
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("qr_read.py").path],
            input: Data(terminalText.utf8))
        #expect(result.status == 0, "\(result.stderrText)")
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: ["https://kitchen-pi.local:8443/join#Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u", "http://192.168.1.20:8080/ca.crt"])
    func whatTheTerminalShowsReadsBackAsTheLink(link: String) async throws {
        let code = try QRCode(link)
        #expect(try await Self.read(code.terminalText()) == link)
    }

    @Test func theSVGDrawsEveryDarkModuleOnWhite() throws {
        let code = try QRCode("https://flapd.test:8443/")
        let svg = code.svg(title: "the <board>")
        #expect(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 \(code.width + 8) \(code.width + 8)\""))
        #expect(svg.contains("aria-label=\"QR code: the &lt;board&gt;\""))
        let dark = code.modules.joined().filter { $0 }.count
        // Each run of dark modules is one `h` segment; their lengths add up to every dark module.
        let drawn = svg.split(separator: "h").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }.reduce(0, +)
        #expect(drawn == dark)
    }

    @Test func aLinkTooLongIsRefusedWithItsSize() {
        #expect { try QRCode(String(repeating: "x", count: 5000)) } throws: { "\($0)".contains("too long for a QR code (5000 bytes)") }
    }
}
