import Glibc

/// One client, as limits that are counted per client see it: an IPv4 address, or an IPv6 /64
/// (one network: a host there has as many addresses as it likes).
public enum ClientNetwork {
    /// An IPv4 address as it is; an IPv6 address as its /64 (an IPv4-mapped one as its IPv4).
    public static func key(_ address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}
