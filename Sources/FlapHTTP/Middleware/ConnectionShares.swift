import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// A port's capacity shared by role, so that the household always gets through. A viewer key
/// handed to dashboards held every connection once (330 event streams), and a device with no key
/// did as well, by sending `/healthz` on 256 keep-alive connections every second. Here:
/// - each request's ``Authentication`` says whose its connection is: the household's (the
///   owner, a member) or someone else's (the viewer key, a webhook's key);
/// - some of the port's connections are the household's alone (``ConnectionShare``), and a
///   client network's connections that have not said whose they are are few and short-lived;
/// - a connection over the port's limit that carries a credential is read as far as that: the
///   household's is let in (in the place of another when the port is full, never one whose
///   request is being answered); anyone else's is answered 503 unless their share has room;
/// - event streams are counted apart, per key: at most ``streamsPerKey`` for the viewer key and
///   for each member, answered 429 past it (the owner's are bounded by the port alone).
public final class ConnectionShares: Sendable {
    /// Event streams one key holds at once.
    public static let streamsPerKey = 16

    private let counts = Mutex<[UInt64: ConnectionCount]>([:])

    /// No connection counted yet.
    public init() {}

    func register(_ id: UInt64, _ count: ConnectionCount) { counts.withLock { $0[id] = count } }

    func unregister(_ id: UInt64) { _ = counts.withLock { $0.removeValue(forKey: id) } }

    /// Whether a late request may be the household's: it carries a credential.
    static func mayBeHousehold(_ head: HTTPRequest) -> Bool {
        head.headerFields[.authorization] != nil || head.headerFields[.cookie]?.contains(SessionCookie.cookieName + "=") == true
    }

    /// Says whose `connection` is; the answer to give instead when it may not go on (a late
    /// connection that is not the household's, or nobody it could replace).
    func admit(_ connection: ConnectionID, household: Bool) -> Response? {
        guard let (id, count) = counted(connection) else { return nil }
        guard count.held(id, by: household ? .household : .other) else {
            return Responses.error(
                .serviceUnavailable, "flapd is serving as many connections as it takes (\(count.limit)); try again shortly",
                headers: [.retryAfter: "2", .connection: "close"])
        }
        return nil
    }

    /// Opens the event stream `request` asks for with `key` (its kind and whose, never the key
    /// itself); the answer to give instead when that key holds ``streamsPerKey`` already.
    func openStream(on connection: ConnectionID, key: String) -> Response? {
        guard let (id, count) = counted(connection), !count.openStream(id, key: key, most: Self.streamsPerKey) else { return nil }
        return Responses.error(
            .tooManyRequests, "\(Self.streamsPerKey) event streams are open with this key already (pages, dashboards); close one",
            headers: [.retryAfter: "10"])
    }

    /// The connection's id and its port's count; nil for a port with no shares.
    private func counted(_ connection: ConnectionID) -> (UInt64, ConnectionCount)? {
        guard let count = counts.withLock({ $0[connection.value] }) else { return nil }
        return (connection.value, count)
    }
}
