import FlapHardware
import Foundation
import SystemPackage
import TestSupport
import Testing

@testable import FlapLinux

/// termios on a real pseudo-terminal, with a Python peer on the other end.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct LinuxSerialPortTests {
    /// A line from the peer, waiting for it as long as a busy machine needs (each read gives up
    /// after a second, and is tried again until a minute has gone by).
    func readLine(_ port: LinuxSerialPort) async throws -> String {
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while !bytes.contains(0x0A), ContinuousClock.now < deadline {
            bytes += try await port.read(maximum: 256, timeout: .seconds(1))
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test func talksThroughAPseudoTerminalAt230400EightNOne() async throws {
        let peer = try await ChildProcess(try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("pty_peer.py").path])
        teardown { await peer.stop() }
        var path = ""
        _ = try await eventually(every: .milliseconds(10)) {
            path = peer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            return !path.isEmpty
        }
        let port = try LinuxSerialPort(path: path, settings: .chainlink)
        try await port.write(Array("hello\n".utf8))
        #expect(try await readLine(port) == "HELLO")
        try await port.write(Array("settings?\n".utf8))
        #expect(try await readLine(port) == "230400 raw=True cs8=True")
        try await port.write(Array("blob?\n".utf8))
        var blob: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while blob.count < 5000, ContinuousClock.now < deadline {
            blob += try await port.read(maximum: 1024, timeout: .seconds(1))
        }
        #expect(blob == (0..<5000).map { UInt8($0 % 256) })
        // Nothing more to read: an empty answer after the timeout, not an error.
        let start = ContinuousClock.now
        #expect(try await port.read(maximum: 16, timeout: .milliseconds(100)).isEmpty)
        #expect(start.duration(to: .now) >= .milliseconds(100))
        try await port.write(Array("bye\n".utf8))
        await port.close()
        await port.close()
    }

    @Test func openingProblemsNameTheDeviceAndWhatToDo() {
        do {
            _ = try LinuxSerialPort(path: "/dev/splitflap-nope", settings: .chainlink)
            Issue.record("opened a device that does not exist")
        } catch let error as HardwareError {
            #expect(error.device == "/dev/splitflap-nope" && error.remedy == "is the controller plugged in?")
            // The system's error is kept as itself, and said in its words.
            #expect(error.errno == .noSuchFileOrDirectory && error.description.contains("cannot open: No such file or directory"), "\(error)")
        } catch { Issue.record("\(error)") }
        do {
            _ = try LinuxSerialPort(path: "/dev/null", settings: .chainlink)
            Issue.record("/dev/null is not a serial device")
        } catch let error as HardwareError {
            #expect(error.problem.hasPrefix("not a serial device") && error.errno == .inappropriateIOCTLForDevice, "\(error)")
        } catch { Issue.record("\(error)") }
    }

    /// A BREAK waits for what was written to leave, then holds the line: a pseudo-terminal has
    /// no line, so the kernel takes it and the bytes before it arrive whole.
    @Test func aBreakFollowsWhatWasWritten() async throws {
        let (device, path) = try LinuxSerialPort.pseudoTerminal(settings: SBBLine.settings)
        let host = try LinuxSerialPort(path: path, settings: SBBLine.settings)
        teardown {
            await host.close()
            await device.close()
        }
        try await host.write([0xFF, 0xD0, 0x1D])
        let before = ContinuousClock.now
        try await host.sendBreak(for: .milliseconds(20))
        #expect(ContinuousClock.now - before >= .milliseconds(20))
        var heard: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while heard.count < 3, ContinuousClock.now < deadline { heard += try await device.read(maximum: 16, timeout: .seconds(1)) }
        #expect(heard == [0xFF, 0xD0, 0x1D])
    }
}
