import FlapDiscovery
import Foundation
import ServiceLifecycleTestKit
import TestSupport
import Testing

/// The announcement against avahi played by python-dbusmock on a private system bus: both
/// services added and committed in one entry group, the group freed at shutdown, a name taken
/// elsewhere followed by " #2", and no avahi said once without stopping anything.
@Suite(.serialized, .timeLimit(.minutes(2))) struct AvahiAnnouncementTests {
    struct Group: Decodable { var path: String; var calls: [[Call]] }
    enum Call: Decodable, Equatable {
        case text(String), number(Int), list([String])
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let number = try? value.decode(Int.self) {
                self = .number(number)
            } else if let text = try? value.decode(String.self) {
                self = .text(text)
            } else {
                self = .list(try value.decode([String].self))
            }
        }
    }

    static func groups(_ peer: DBusPeer) async throws -> [Group] {
        try JSONDecoder().decode([Group].self, from: Data(try await peer.command("groups").utf8))
    }

    static func methods(_ group: Group) -> [String] { group.calls.compactMap { if case .text(let m)? = $0.first { m } else { nil } } }

    func announced(on peer: DBusPeer, name: String, log: LogLines, while body: () async throws -> Void) async throws {
        try await testGracefulShutdown { trigger in
            let announcement = AvahiAnnouncement(name: name, ports: { (8080, 8443) }, busAddress: peer.address, logger: log.logger)
            let running = Task { try await announcement.run() }
            let committed = try await eventually {
                try await Self.groups(peer).contains { Self.methods($0).contains("Commit") }
            }
            let seen = try await Self.groups(peer)
            #expect(committed, "\(seen) \(log.all)")
            try await body()
            trigger.triggerGracefulShutdown()
            try await running.value
        }
    }

    @Test func bothServicesAreAnnouncedAndWithdrawnAtStop() async throws {
        let peer = try await DBusPeer.start(script: "avahi_peer.py")
        let log = LogLines()
        try await announced(on: peer, name: "VestaWidget on kitchen", log: log) {
            let group = try #require(try await Self.groups(peer).first)
            let added = group.calls.filter { $0.first == .text("AddService") }
            #expect(
                added == [
                    [
                        .text("AddService"), .number(-1), .number(-1), .number(0), .text("VestaWidget on kitchen"), .text("_https._tcp"), .text(""),
                        .text(""), .number(8443), .list(["path=/"])
                    ],
                    [
                        .text("AddService"), .number(-1), .number(-1), .number(0), .text("VestaWidget on kitchen"), .text("_http._tcp"), .text(""),
                        .text(""), .number(8080), .list(["path=/"])
                    ]
                ])
        }
        #expect(Self.methods(try #require(try await Self.groups(peer).first)).last == "Free", "withdrawn at stop")
        #expect(log.all.contains { $0.contains("announced on the network") })
        await peer.stop()
    }

    @Test func aNameTakenOnTheNetworkGetsANumber() async throws {
        let peer = try await DBusPeer.start(script: "avahi_peer.py")
        try await peer.command("take VestaWidget on kitchen")
        try await announced(on: peer, name: "VestaWidget on kitchen", log: LogLines()) {
            let group = try #require(try await Self.groups(peer).first)
            let names = group.calls.filter { $0.first == .text("AddService") }.map { $0[4] }
            #expect(names.last == .text("VestaWidget on kitchen #2"), "\(names)")
            #expect(Self.methods(group).contains("Reset"))
        }
        await peer.stop()
    }

    @Test func withoutASystemBusItIsSaidOnceAndNothingStops() async throws {
        let log = LogLines()
        try await testGracefulShutdown { trigger in
            let announcement = AvahiAnnouncement(name: "x", ports: { (1, 2) }, busAddress: "unix:path=/nonexistent/bus", logger: log.logger)
            let running = Task { try await announcement.run() }
            let said = try await eventually { log.all.contains { $0.contains("not announced on the network") } }
            #expect(said)
            trigger.triggerGracefulShutdown()
            try await running.value
        }
        #expect(log.all.filter { $0.contains("not announced") }.count == 1)
    }
}
