import FlapCore
import FlapPrimitives
import Foundation
import TestSupport
import Testing

@testable import FlapHardware

/// The Chainlink wire format against Python's protobuf, cobs and zlib (Tests/Peers/chainlink_peer.py).
@Suite struct ChainlinkFrameTests {
    static func ask(_ requests: [[String: Any]]) async throws -> [[String: Any]] {
        var input = Data()
        for request in requests {
            input += try JSONSerialization.data(withJSONObject: request)
            input.append(0x0A)
        }
        let output = try await PythonPeer.runScript("chainlink_peer.py", input: input)
        return try output.split(separator: 0x0A).map { try JSONSerialization.jsonObject(with: Data($0)) as! [String: Any] }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    @Test func framesToTheControllerMatchPythonsByteForByte() async throws {
        var random = SeededRandom(seed: 52)
        var messages: [ToSplitflap] = [ToSplitflap(nonce: 0, payload: .requestState), ToSplitflap(nonce: 1, payload: .config([]))]
        for count in [1, 6, 12, 108, 132, 255] {
            let modules = (0..<count).map { _ in
                ToSplitflap.ModuleConfig(
                    targetFlapIndex: UInt8(random.next() % 52), movementNonce: UInt8(random.next() % 3 == 0 ? random.next() % 256 : 0),
                    resetNonce: UInt8(random.next() % 5 == 0 ? random.next() % 256 : 0))
            }
            messages.append(ToSplitflap(nonce: UInt32(random.next() % 100_000), payload: .config(modules)))
        }
        // No zero byte for hundreds of bytes: COBS's 254-byte blocks.
        messages.append(
            ToSplitflap(
                nonce: 77,
                payload: .config((0..<200).map { ToSplitflap.ModuleConfig(targetFlapIndex: UInt8(1 + $0 % 50), movementNonce: 3, resetNonce: 9) })))
        let requests: [[String: Any]] = messages.map { message in
            switch message.payload {
            case .requestState: ["op": "to", "nonce": message.nonce, "request_state": true]
            case .config(let modules):
                [
                    "op": "to", "nonce": message.nonce,
                    "config": modules.map { [Int($0.targetFlapIndex), Int($0.movementNonce), Int($0.resetNonce)] }
                ]
            }
        }
        for (message, answer) in zip(messages, try await Self.ask(requests)) {
            let ours = ChainlinkFrame.encode(message)
            #expect(Self.hex(ours) == answer["frame"] as? String, "\(message.nonce)")
            #expect(ours.last == 0 && !ours.dropLast().contains(0))
        }
    }

    @Test func framesFromTheControllerAreRead() async throws {
        var random = SeededRandom(seed: 7)
        var modules: [[Int]] = []
        for _ in 0..<132 {
            let limits: [UInt64] = [5, 52, 2, 2, 256, 256]
            modules.append(limits.map { Int(random.next() % $0) })
        }
        let answers = try await Self.ask([
            ["op": "from_state", "modules": modules, "loopbacks_ok": true],
            ["op": "from_ack", "nonce": 4_000_000_000 as UInt32],
            ["op": "from_log", "msg": "Starting up (°)"],
            ["op": "from_general", "version": 1, "uptime": 123_456, "charset": " ABCDEFGHIJKLMNOPQRSTUVWXYZg0123456789r.?-$'#yp,!@&w"]
        ])
        let frames = answers.map { Self.bytes($0["frame"] as! String) }
        guard case .state(let state) = try ChainlinkFrame.decode(Array(frames[0].dropLast())) else { Issue.record("not a state"); return }
        #expect(state.loopbacksOK)
        #expect(state.modules.count == 132)
        for (module, expected) in zip(state.modules, modules) {
            #expect(module.state.rawValue == expected[0] && module.flapIndex == expected[1])
            #expect(module.moving == (expected[2] == 1) && module.homeState == (expected[3] == 1))
            #expect(module.countUnexpectedHome == expected[4] && module.countMissedHome == expected[5])
        }
        #expect(try ChainlinkFrame.decode(Array(frames[1].dropLast())) == .ack(nonce: 4_000_000_000))
        #expect(try ChainlinkFrame.decode(Array(frames[2].dropLast())) == .log("Starting up (°)"))
        guard case .general(let general) = try ChainlinkFrame.decode(Array(frames[3].dropLast())) else { Issue.record("not general"); return }
        #expect(general.serialProtocolVersion == 1 && general.uptimeMillis == 123_456)
        #expect(try Drum(string: String(decoding: general.flapCharacterSet, as: UTF8.self)).codes == Drum.chainlink52.codes)
    }

    @Test func damagedFramesAreRefusedWithTheReason() async throws {
        let frame = Self.bytes(try await Self.ask([["op": "from_ack", "nonce": 9]])[0]["frame"] as! String).dropLast()
        var flipped = Array(frame)
        flipped[3] ^= 0x40
        #expect(throws: ChainlinkError.self) { try ChainlinkFrame.decode(flipped) }
        do { _ = try ChainlinkFrame.decode(flipped) } catch { #expect(error.description.hasPrefix("bad CRC")) }
        #expect(throws: ChainlinkError("a frame of 2 bytes is too short for its CRC")) { try ChainlinkFrame.decode([3, 1, 2]) }
        #expect(throws: ChainlinkError("a COBS block runs past the end of the frame")) { try ChainlinkFrame.decode([9, 1, 2]) }
        #expect(throws: ChainlinkError("a zero byte inside a COBS frame")) { try ChainlinkFrame.decode([1, 0, 1]) }
    }

    @Test func crc32AndCOBSAgreeWithTheirDefinitions() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)  // the standard check value
        for data: [UInt8] in [
            [], [0], [0, 0], [1], Array(repeating: 7, count: 254), Array(repeating: 7, count: 255), Array(repeating: 7, count: 600) + [0, 5]
        ] {
            #expect(try COBS.decode(COBS.encode(data)) == data)
            #expect(!COBS.encode(data).contains(0))
        }
        #expect(COBS.encode([0x11, 0x22, 0x00, 0x33]) == [0x03, 0x11, 0x22, 0x02, 0x33])  // the Wikipedia example
    }
}
