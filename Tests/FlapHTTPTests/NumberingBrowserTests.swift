import Foundation
import TestSupport
import Testing

/// A new wall numbered from a phone: flapd drives a 2×8 wall on a pseudo-terminal (`flapctl
/// simulate-hardware`) of sixteen Universal Firmware modules with no IDs. On the page, each module
/// the wall marks with ? is tapped where it hangs (a shuffled order), each takes its place's ID,
/// the wall shows READY and then a message with every letter where it belongs; a module swapped
/// for a new one is numbered alone.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(15))) struct NumberingBrowserTests {
    /// Where the simulator's modules hang, in its order (by serial number).
    static let places = [
        [2, 5], [1, 1], [2, 8], [1, 4], [1, 7], [2, 2], [1, 2], [2, 6], [1, 8], [2, 1], [1, 3], [2, 7], [1, 5], [2, 3], [1, 6], [2, 4]
    ]

    @Test func sixteenModulesAreNumberedFromThePage() async throws {
        let hardware = try await SimulatedHardware.start(["--rs485", "0", "--unnumbered", "16", "--chainlink", "0", "--swap-on-signal", "2"])
        teardown { await hardware.stop() }
        let flapd = try await hardware.flapdDrivingTheWall(size: "2x8", id: "main")
        teardown { await flapd.stop() }
        let places = String(decoding: try JSONSerialization.data(withJSONObject: Self.places), as: UTF8.self)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_numbering_check.py").path, "http://127.0.0.1:\(flapd.apiPort)",
                flapd.apiKey,
                hardware.process.stdoutPath, "\(hardware.process.pid)", places
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any], "\(result.stdoutText)")
        let said = "\(seen)\n\(flapd.said.suffix(3000))"
        #expect(seen["offered"] as? Bool == true && seen["numbered"] as? Bool == true, "\(said)")
        // Each place tapped once, in the order the wall marked its modules (as they were heard).
        let taps = seen["taps"] as? [[Int]] ?? []
        #expect(taps.count == 16 && Set(taps) == Set(Self.places), "\(said)")
        #expect(seen["ready"] as? Bool == true && seen["readyShown"] as? Bool == true, "\(said)")
        #expect(seen["grid"] as? [String] == (1...16).map(String.init), "every place shows its module's number: \(said)")
        #expect(seen["message"] as? Bool == true, "\(said)")
        #expect(seen["oneToGo"] as? Bool == true && seen["swappedMarked"] as? Bool == true && seen["renumbered"] as? Bool == true, "\(said)")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}
