import Synchronization
import Testing

@testable import FlapHTTP

/// How a port's connections are shared, rule by rule, with stand-in connections: the household's
/// reserved connections, the bound per client on connections that say nothing of whose they
/// are, and which connection the household's takes the place of.
@Suite struct ConnectionCountTests {
    final class Connection: ClosableChannel {
        let closed = Mutex(false)
        func closeConnection() { closed.withLock { $0 = true } }
        var isClosed: Bool { closed.withLock { $0 } }
    }

    static let share = ConnectionShare(
        limit: 10, reserved: 3, unauthenticatedPerClient: 4, unauthenticatedLifetime: .seconds(60),
        lateLimit: 5, grace: .seconds(2))

    /// Connections `first..<first+n` from `client`, each having asked once without a credential
    /// (a chatty client's `/healthz`): whether each was served.
    func chatty(_ count: ConnectionCount, _ first: UInt64, _ n: Int, client: String) -> [Bool] {
        (first..<first + UInt64(n)).map { id in
            let served = count.enter(id, Connection(), client: client)
            count.asking(id)
            count.answered(served: id)
            return served
        }
    }

    @Test func oneClientHoldsFewConnectionsThatSayNothingOfWhoseTheyAre() {
        let count = ConnectionCount(Self.share)
        #expect(chatty(count, 0, 6, client: "10.0.0.9") == [true, true, true, true, false, false])
        // Another client is served beside it.
        #expect(chatty(count, 100, 1, client: "10.0.0.8") == [true])
    }

    @Test func strangersLeaveTheReservedConnectionsToTheHousehold() {
        let count = ConnectionCount(Self.share)
        var served = 0
        for client in 0..<4 { served += chatty(count, UInt64(client * 10), 4, client: "10.0.0.\(client)").filter { $0 }.count }
        #expect(served == 7, "10 connections less the 3 kept for the household")
        // A viewer's is refused too, when strangers hold the others' share.
        #expect(!count.enter(50, Connection(), client: "10.0.1.1"))
        #expect(!count.held(50, by: .other))
        // The household's three come in without replacing anyone.
        for id: UInt64 in 60..<63 {
            #expect(!count.enter(id, Connection(), client: "10.0.0.0"))
            #expect(count.held(id, by: .household))
        }
    }

    @Test func theHouseholdTakesTheChattyStrangersPlaceBeforeItsOwn() {
        let count = ConnectionCount(
            ConnectionShare(
                limit: 4, reserved: 1, unauthenticatedPerClient: 4, unauthenticatedLifetime: .seconds(60),
                lateLimit: 5, grace: .seconds(60)))
        let owners = (0..<2).map { _ in Connection() }
        for (id, connection) in owners.enumerated() {
            #expect(count.enter(UInt64(id), connection, client: "10.0.0.1"))
            #expect(count.held(UInt64(id), by: .household))
        }
        let stranger = Connection()
        #expect(count.enter(10, stranger, client: "10.0.0.2"))
        count.asking(10)
        count.answered(served: 10)
        let member = Connection()
        #expect(count.enter(11, member, client: "10.0.0.3"))
        #expect(count.held(11, by: .household))
        // Full: the next household connection replaces the stranger that keeps asking, not a household one.
        #expect(!count.enter(12, Connection(), client: "10.0.0.1"))
        #expect(count.held(12, by: .household))
        #expect(stranger.isClosed && !owners.contains { $0.isClosed } && !member.isClosed)
        // Then the household's least recently authenticated: the first owner connection.
        _ = count.held(1, by: .household)
        _ = count.held(11, by: .household)
        #expect(!count.enter(13, Connection(), client: "10.0.0.1"))
        #expect(count.held(13, by: .household))
        #expect(owners[0].isClosed && !owners[1].isClosed && !member.isClosed)
    }

    @Test func aConnectionBeingAnsweredIsNeverReplaced() {
        let count = ConnectionCount(
            ConnectionShare(
                limit: 1, reserved: 0, unauthenticatedPerClient: 4, unauthenticatedLifetime: .seconds(60),
                lateLimit: 5, grace: .seconds(60)))
        let busy = Connection()
        #expect(count.enter(0, busy, client: "10.0.0.1"))
        count.asking(0)
        #expect(!count.enter(1, Connection(), client: "10.0.0.1"))
        #expect(!count.held(1, by: .household))
        #expect(!busy.isClosed)
    }

    @Test func anUnauthenticatedConnectionsLastAnswerComesWithAge() {
        let count = ConnectionCount(
            ConnectionShare(
                limit: 4, reserved: 0, unauthenticatedPerClient: 4, unauthenticatedLifetime: .zero,
                lateLimit: 5, grace: .seconds(2)))
        #expect(count.enter(0, Connection(), client: "10.0.0.1"))
        #expect(count.enter(1, Connection(), client: "10.0.0.1"))
        count.asking(0)
        #expect(count.closesAfterAnswer(0))
        #expect(count.held(1, by: .household))
        #expect(!count.closesAfterAnswer(1), "the household's keep-alive is not cut short")
    }
}
