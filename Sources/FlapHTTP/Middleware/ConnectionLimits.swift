import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How each of flapd's ports guards itself against slow, idle, vanished and too many
/// connections, sized for a Pi with 512 MB:
/// - a connection that sends no complete request head, or nothing after its last answer, for
///   `idleTimeout` is closed (a slow-header client, an idle keep-alive; an event stream being
///   answered is not idle);
/// - a request body must have arrived within `bodyTimeout`, or the answer is 408;
/// - at most `maximumConnections` are served at once; one more is read only as far as its
///   request head, within `lateHeadTimeout`, and answered 503 (or, for `/healthz`, served) and
///   closed; at most `maximumLate` such wait at once, and one more closes the one that has
///   waited longest. A flood then holds a few hundred connections, not thousands, and their
///   memory with them (each is a few tens of KiB), while a health check, which sends its
///   request as soon as it connects, is still answered;
/// - on the native API's ports the household always gets through (``ConnectionShares``):
///   `reservedForHousehold` of the connections are the owner's and members' alone; a client
///   network holds at most `unauthenticatedPerClient` connections that have not said whose they
///   are, each for at most `unauthenticatedLifetime`; one more connection from the household
///   when the port is full takes the place of another (a silent one, a viewer's, a chatty
///   stranger's, else the household's least recently authenticated); and each key holds at
///   most ``ConnectionShares/streamsPerKey`` event streams.
public struct ConnectionLimits: Sendable {
    /// How long a connection may go without a request head, or idle after an answer.
    public var idleTimeout: Duration
    /// How long a request body may take to arrive.
    public var bodyTimeout: Duration
    /// Connections served at once, a port.
    public var maximumConnections: Int
    /// How long one more connection has to send its request head.
    public var lateHeadTimeout: Duration
    /// How many such connections wait at once.
    public var maximumLate: Int
    /// Connections only the household may use.
    public var reservedForHousehold: Int
    /// Connections that have not said whose they are, a client network.
    public var unauthenticatedPerClient: Int
    /// How long such a connection may stay.
    public var unauthenticatedLifetime: Duration

    /// The defaults: 15 s idle, 10 s for a body, 256 connections a port, 1 s for the head of one
    /// over the limit and 64 of those at once; 32 of the 256 the household's alone; 16
    /// connections that have not said whose they are from one client network, for a minute
    /// each. A page holds one or two connections and its event stream another, a browser opens
    /// at most six to one server: 256 is a household's worth many times over, 32 a busy
    /// household's, 16 a browser's and a dashboard's together.
    public init(
        idleTimeout: Duration = .seconds(15), bodyTimeout: Duration = .seconds(10), maximumConnections: Int = 256,
        lateHeadTimeout: Duration = .seconds(1), maximumLate: Int = 64, reservedForHousehold: Int = 32,
        unauthenticatedPerClient: Int = 16, unauthenticatedLifetime: Duration = .seconds(60)
    ) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.lateHeadTimeout = lateHeadTimeout
        self.maximumLate = maximumLate
        self.reservedForHousehold = reservedForHousehold
        self.unauthenticatedPerClient = unauthenticatedPerClient
        self.unauthenticatedLifetime = unauthenticatedLifetime
    }

    /// How a port's requests arrive.
    public enum Transport: Sendable {
        /// Plain HTTP; with `redirectingPagesTo`, pages asked for by other machines are sent to
        /// that HTTPS port by one of its names (nil until it is bound).
        case plain(redirectingPagesTo: (@Sendable () -> HTTPSRedirectTarget?)? = nil)
        /// Inside TLS: answers may set cookies for HTTPS only.
        case tls
    }

    /// The HTTP/1.1 server of one port with these limits (each port counts its own connections).
    /// With `shares`, the port's connections are shared by role (``ConnectionShares``): the
    /// router's ``Authentication`` says whose each request is.
    public func server(_ transport: Transport = .plain(), shares: ConnectionShares? = nil) -> HTTPServerBuilder {
        // A port not shared by role (the Local API's) keeps nothing back for a household it cannot tell.
        let count = ConnectionCount(
            ConnectionShare(
                limit: maximumConnections, reserved: shares == nil ? 0 : reservedForHousehold,
                unauthenticatedPerClient: shares == nil ? maximumConnections : unauthenticatedPerClient,
                unauthenticatedLifetime: shares == nil ? .seconds(365 * 86_400) : unauthenticatedLifetime,
                lateLimit: maximumLate, grace: max(.seconds(2), lateHeadTimeout * 2)))
        let lateHeadTimeout = TimeAmount(lateHeadTimeout)
        return .http1(
            configuration: .init(
                additionalChannelHandlers: [ConnectionGate(count: count, shares: shares, lateHeadTimeout: lateHeadTimeout)]
                    + Self.handlers(transport),
                idleTimeout: TimeAmount(idleTimeout)))
    }

    private static func handlers(_ transport: Transport) -> [any RemovableChannelHandler] {
        switch transport {
        case .plain(let redirect?): [TransportMark(secure: false), PlainHTTPRedirect(target: redirect)]
        case .plain(nil): [TransportMark(secure: false)]
        case .tls: [TransportMark(secure: true)]
        }
    }
}
