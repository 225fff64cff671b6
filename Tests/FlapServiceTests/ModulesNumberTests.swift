import FlapSimulated
import Foundation
import TestSupport
import Testing

/// `flapctl modules number` against flapd driving a wall of four Universal Firmware modules with
/// no IDs (`flapctl simulate-hardware --unnumbered 4`): each shows `?` in turn and takes the ID
/// of the place typed for it, the wall shows READY and then a message with each module at its
/// place; a module swapped for a new one is numbered alone.
@Suite(.cleansUp, .timeLimit(.minutes(5))) struct ModulesNumberTests {
    @Test func aWallIsNumberedFromWhereItsModulesHang() async throws {
        let hardware = try await SimulatedHardware.start(["--rs485", "0", "--unnumbered", "4", "--chainlink", "0", "--swap-on-signal", "2"])
        teardown { await hardware.stop() }
        let flapd = try await hardware.flapdDrivingTheWall(size: "1x4")
        teardown { await flapd.stop() }
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let arguments = [
            "modules", "number", "--panel", "wall", "--wait", "90", "--url", "http://127.0.0.1:\(flapd.apiPort)", "--api-key", flapd.apiKey
        ]
        let serials = (1001...1004).map(SimulatedRS485Module.serial(made:))

        // Marked in the order of their serial numbers; they hang at columns 3, 1, 4 and 2.
        let numbered = try await ProcessRunner.run(flapctl, arguments, input: Data("1,3\n1,1\n1,4\n1,2\n".utf8))
        let said = numbered.stdoutText
        #expect(numbered.status == 0, "\(said)\(numbered.stderrText)\n\(flapd.said.suffix(2000))")
        #expect(said.hasPrefix("0 of 4 places answer\n"), "\(said)")
        #expect(said.contains("module \(serials[0]) shows ?: where does it hang?"), "\(said)")
        #expect(said.contains("row 1, column 3: module \(serials[0]) answers as 3"), "\(said)")
        #expect(said.contains("row 1, column 2: module \(serials[3]) answers as 2"), "\(said)")
        #expect(said.hasSuffix("every place answers: the wall shows READY\n"), "\(said)")
        #expect(numbered.stderrText.contains("listening for modules with no ID"), "\(numbered.stderrText)")
        // The simulator says the modules' flaps in its own order (by serial number): READ on a
        // wall of four, each letter where its module hangs.
        #expect(try await eventually { hardware.process.stdout.contains("rs485: ARDE\n") }, "\(hardware.process.stdout.suffix(500))")
        let sent = try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "WXYZ"}"#)
        #expect(sent.status == 202)
        #expect(try await eventually { hardware.process.stdout.contains("rs485: YWZX\n") }, "\(hardware.process.stdout.suffix(500))")

        // The module at column 2 breaks and a new one takes its place: it alone is numbered.
        hardware.process.signal(SIGUSR1)
        #expect(try await eventually { hardware.process.stdout.contains("rs485: module 2 swapped for") })
        let again = try await ProcessRunner.run(flapctl, arguments, input: Data("1,2\n".utf8))
        let new = SimulatedRS485Module.serial(made: 2002)
        #expect(again.status == 0, "\(again.stdoutText)\(again.stderrText)")
        #expect(again.stdoutText.hasPrefix("3 of 4 places answer\n"), "\(again.stdoutText)")
        #expect(again.stdoutText.contains("row 1, column 2: module \(new) answers as 2"), "\(again.stdoutText)")
    }
}
