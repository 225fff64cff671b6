import Foundation
import TestSupport
import Testing

/// flapd listening on the network announces its two ports through avahi (played by
/// python-dbusmock on a private system bus) and withdraws them when it stops; on loopback only,
/// it announces nothing.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiscoveryServiceTests {
    static func calls(_ peer: DBusPeer) async throws -> [[Any]] {
        let groups = try JSONSerialization.jsonObject(with: Data(try await peer.command("groups").utf8)) as? [[String: Any]] ?? []
        return groups.flatMap { $0["calls"] as? [[Any]] ?? [] }
    }

    @Test func flapdOnTheNetworkIsAnnouncedWhileItRuns() async throws {
        let peer = try await DBusPeer.start(script: "avahi_peer.py")
        let flapd = try await FlapdProcess.start(
            arguments: ["--no-sound", "--listen", "0.0.0.0"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": peer.address])
        let committed = try await eventually { try await Self.calls(peer).contains { $0.first as? String == "Commit" } }
        #expect(committed, "\(flapd.process.stderr)")
        let added = try await Self.calls(peer).filter { $0.first as? String == "AddService" }
        #expect(added.map { $0[5] as? String } == ["_https._tcp", "_http._tcp"])
        #expect(added.map { $0[8] as? Int } == [flapd.httpsPort, flapd.apiPort])
        #expect((added.first?[4] as? String)?.hasPrefix("VestaWidget on ") == true)
        #expect(await flapd.terminate() == 0)
        #expect(try await Self.calls(peer).last?.first as? String == "Free", "withdrawn when flapd stops")
        await peer.stop()
    }

    @Test func flapdOnLoopbackAnnouncesNothing() async throws {
        let peer = try await DBusPeer.start(script: "avahi_peer.py")
        let flapd = try await FlapdProcess.start(arguments: ["--no-sound"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": peer.address])
        #expect(try await flapd.api.get("/healthz").status == 200)
        #expect(try await Self.calls(peer).isEmpty)
        await flapd.stop()
        await peer.stop()
    }
}
