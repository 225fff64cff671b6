import Foundation
import Testing

@testable import FlapLinux

#if canImport(Glibc)
    import Glibc
#endif

/// The notify protocol against a real unix datagram socket standing in for systemd's: a unix
/// datagram is in the receiver's queue when the send returns, so nothing here waits.
@Suite(.timeLimit(.minutes(3))) struct SystemdNotifySocketTests {
    /// A bound datagram socket, read without waiting; `name` starting with "@" is abstract.
    final class Manager {
        let name: String
        let fd: Int32

        init(abstract: Bool) throws {
            let unique = "flapd-notify-test-\(UUID().uuidString.prefix(8))"
            name = abstract ? "@\(unique)" : FileManager.default.temporaryDirectory.appendingPathComponent(unique).path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        }

        deinit {
            close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }

        /// The next datagram in the queue, or nil when it is empty.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
    }

    @Test(arguments: [false, true]) func aNotificationReachesAPathOrAnAbstractName(abstract: Bool) throws {
        let manager = try Manager(abstract: abstract)
        let socket = SystemdNotifySocket(manager.name)
        #expect(socket.isConfigured)
        try socket.send("READY=1\nSTATUS=showing messages")
        try socket.send("WATCHDOG=1")
        #expect(manager.next() == "READY=1\nSTATUS=showing messages")
        #expect(manager.next() == "WATCHDOG=1")
        #expect(manager.next() == nil)
    }

    /// sd_notify would wait here until the manager read again; this says so at once.
    @Test func aFullQueueIsReportedNotWaitedFor() throws {
        let manager = try Manager(abstract: false)
        let socket = SystemdNotifySocket(manager.name)
        var sent = 0
        while true {
            do {
                try socket.send("WATCHDOG=1")
                sent += 1
            } catch {
                #expect(error == .queueFull)
                break
            }
            // The kernel's limit (net.unix.max_dgram_qlen, 10 to 512) is far below this.
            try #require(sent < 100_000, "the queue never filled")
        }
        #expect(sent >= 1)
        // Once the manager reads, notifications go again.
        #expect(manager.next() == "WATCHDOG=1")
        try socket.send("STOPPING=1")
    }

    @Test func withoutASocketNothingIsSentAndNothingFails() throws {
        let socket = SystemdNotifySocket(nil)
        #expect(!socket.isConfigured)
        try socket.send("READY=1")
        try SystemdNotifySocket("").send("READY=1")
    }

    @Test func anAddressThatIsNotAUnixSocketIsNamed() {
        #expect(throws: SystemdNotifySocket.Failure.unsupportedAddress("vsock:2:1234")) {
            try SystemdNotifySocket("vsock:2:1234").send("READY=1")
        }
        let tooLong = "/" + String(repeating: "x", count: 200)
        #expect(throws: SystemdNotifySocket.Failure.unsupportedAddress(tooLong)) { try SystemdNotifySocket(tooLong).send("READY=1") }
    }

    @Test func aSocketNobodyListensOnIsASystemError() {
        let socket = SystemdNotifySocket("/nonexistent/notify")
        #expect(throws: SystemdNotifySocket.Failure.system(operation: "sending to NOTIFY_SOCKET", errno: ENOENT)) { try socket.send("READY=1") }
    }
}
