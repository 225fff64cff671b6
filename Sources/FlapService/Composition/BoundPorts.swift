import FlapCore
import FlapPrimitives
import Glibc
import NIOCore
import ServiceLifecycle
import Synchronization

/// The ports flapd's servers are bound to, once they are (useful with port 0).
public actor BoundPorts {
    /// Which server.
    public enum API: Sendable { case native, https, local }

    /// Every server's port.
    public struct Ports: Sendable, Equatable {
        /// The native API's plain-HTTP port.
        public var native: Int
        /// The HTTPS port.
        public var https: Int
        /// The Local API's port.
        public var local: Int
    }

    private var native: Int?
    private var https: Int?
    private var local: Int?
    /// Callers of ``waitUntilBound()``, by number.
    private let waiters = Waiters<Int, Ports?>()
    private var nextWaiter = 0
    /// The HTTPS port, readable without awaiting (the plain port's redirect asks at each page).
    nonisolated let httpsNow = CurrentPort()
    /// The plain port, likewise (the TV's link names it).
    nonisolated let nativeNow = CurrentPort()

    func bound(_ api: API, port: Int?) {
        switch api {
        case .native:
            native = port ?? 0
            nativeNow.set(port)
        case .https:
            https = port ?? 0
            httpsNow.set(port)
        case .local: local = port ?? 0
        }
        if let native, let https, let local {
            waiters.answerAll(with: Ports(native: native, https: https, local: local))
        }
    }

    /// Waits until every server listens; nil when cancelled first (a port already taken: flapd
    /// must then stop, not wait for ever).
    @discardableResult
    public func waitUntilBound() async -> Ports? {
        if let native, let https, let local { return Ports(native: native, https: https, local: local) }
        nextWaiter += 1
        let id = nextWaiter
        return await waiters.wait(for: id, cancelled: nil)
    }
}
