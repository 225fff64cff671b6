import FlapClocks
import FlapHTTP
import TestSupport
import Testing

/// The Host names `/mcp` answers to, and its sessions' lives on a manual clock.
@Suite struct MCPEndpointPartsTests {
    @Test func onLoopbackOnlyLocalNamesAndTheMachinesOwn() {
        let hosts = MCPHosts(listen: "127.0.0.1", machineName: "Kitchen.lan", allowed: ["board.example.org"])
        for name in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "kitchen.lan", "kitchen", "KITCHEN.local:8080", "board.example.org"] {
            #expect(hosts.allows(name), "\(name)")
        }
        for name in ["evil.example", "192.168.1.20:8080", "kitchen.evil.example", "", "localhost.evil.example"] {
            #expect(!hosts.allows(name), "\(name)")
        }
    }

    @Test func onEveryAddressAnyAddressButStillNoStrangeName() {
        let hosts = MCPHosts(listen: "0.0.0.0", machineName: nil, allowed: [])
        for name in ["192.168.1.20:8080", "10.0.0.7", "[fe80::1]:8080"] { #expect(hosts.allows(name), "\(name)") }
        for name in ["evil.example", "1.2.3.4.evil.example", "999.1.1.1"] { #expect(!hosts.allows(name), "\(name)") }
    }

    @Test func aSessionUnusedForItsIdleTimeIsClosed() async {
        let clock = ManualClock()
        let sessions = MCPSessions(clock: clock, idle: .seconds(60), most: 2)
        let first = await sessions.open(version: "2025-11-25")
        await clock.advance(by: .seconds(50))
        #expect(await sessions.use(first) == "2025-11-25")
        await clock.advance(by: .seconds(50))
        #expect(await sessions.use(first) == "2025-11-25", "used 50 s ago, not 100")
        await clock.advance(by: .seconds(61))
        #expect(await sessions.use(first) == nil)
        #expect(await sessions.count == 0)
    }

    @Test func theLongestUnusedMakesRoomAndAnEndedSessionIsGone() async {
        let clock = ManualClock()
        let sessions = MCPSessions(clock: clock, idle: .seconds(600), most: 2)
        let a = await sessions.open(version: "2025-06-18")
        await clock.advance(by: .seconds(1))
        let b = await sessions.open(version: "2025-11-25")
        await clock.advance(by: .seconds(1))
        _ = await sessions.use(a)
        let c = await sessions.open(version: "2025-11-25")
        #expect(await sessions.use(b) == nil, "b was the longest unused")
        #expect(await sessions.use(a) == "2025-06-18" && sessions.most == 2)
        let closed = await sessions.close(c), again = await sessions.close(c)
        #expect(closed && !again)
    }
}
