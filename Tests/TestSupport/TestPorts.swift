import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Ports for a flapd under test, below the kernel's ephemeral range (32768 and up): no server
/// started on port 0 and no client connection is ever given one of them. flapd's parts start again
/// when a setting changes, and listen again on the ports they had; a port 0 had handed out could
/// meanwhile be taken by another test's server, and flapd would stop.
public enum TestPorts {
    /// The ports tests choose from.
    static let range = 20_000..<32_768

    /// A port of ``range`` that nothing listens on now.
    public static func free() throws -> Int {
        for _ in 0..<500 {
            let port = Int.random(in: range)
            if canListen(port) { return port }
        }
        throw PeerError("no free port from \(range.lowerBound) to \(range.upperBound - 1)")
    }

    private static func canListen(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = INADDR_ANY
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
