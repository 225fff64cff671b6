import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// How a session reaches its broker: it opens one connection and puts the session's handlers
/// (`install`) last in its pipeline. A TCP socket, with TLS when configured, in flapd; an
/// in-memory channel in the session's own tests, which play the broker packet by packet.
protocol MQTTTransport: Sendable {
    func connect(install: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void) async throws -> any Channel
}

/// A TCP connection to `host`:`port` on NIO's shared event loops, TLS first when `tls` is set.
struct SocketTransport: MQTTTransport {
    let host: String
    let port: Int
    let tls: NIOSSLContext?

    func connect(install: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void) async throws -> any Channel {
        // An address is checked against the certificate's IP names; SNI takes names only.
        let serverName = Self.isAddress(host) ? nil : host
        let tls = tls
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            // Small reads, one per turn: the read gate can only hold back what is not yet read.
            // A 32 KiB read carried some 250 messages past the window (PUBACK p99 75 ms under
            // a burst); 4 KiB carries about 30 (p99 30–40 ms) at the same throughput.
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 4096))
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    if let tls { try handlers.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                    try install(handlers)
                }
            }
        return try await Self.cancellable(bootstrap.connect(host: host, port: port))
    }

    /// Waits for `connecting`, or ends at once with CancellationError when the task is cancelled
    /// (a session stopped while the broker is unreachable must not wait out the 10 s); a
    /// connection that opens after that is closed.
    private static func cancellable(_ connecting: EventLoopFuture<any Channel>) async throws -> any Channel {
        let waiter = Mutex<CheckedContinuation<any Channel, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.withLock { $0 = continuation }
                connecting.whenComplete { result in waiter.withLock { $0.take() }?.resume(with: result) }
                if Task.isCancelled { waiter.withLock { $0.take() }?.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
            connecting.whenSuccess { $0.close(promise: nil) }
        }
    }

    static func isAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }
}
