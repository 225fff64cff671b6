#if canImport(Glibc)
    import Glibc
#endif

/// What a server certificate must answer to: host names and IP addresses, each once, in a stable
/// order, so two sets made at different times compare equal when nothing changed.
public struct ServerNames: Sendable, Equatable, CustomStringConvertible {
    /// The names, as DNS names.
    public private(set) var dnsNames: [String]
    /// Addresses in their text form (`192.168.1.20`, `fd00::20`).
    public private(set) var addresses: [String]

    /// `localhost`, the machine's `hostName` and `<hostName>.local` (mDNS), `extra` (`[api] tls_names`:
    /// names, or addresses, which go with the addresses) and the loopback and current `addresses`.
    public init(hostName: String, extra: [String] = [], addresses current: [String] = []) {
        var names: [String] = []
        var addresses: [String] = []
        func addName(_ name: String) {
            let name = name.lowercased()
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        func addAddress(_ address: String) {
            if Self.addressBytes(address) != nil, !addresses.contains(address) { addresses.append(address) }
        }
        addName("localhost")
        let short = hostName.split(separator: ".").first.map(String.init) ?? hostName
        for name in [hostName, short, "\(short).local"] where !name.isEmpty && name != ".local" { addName(name) }
        for name in extra {
            if Self.addressBytes(name) != nil { addAddress(name) } else { addName(name) }
        }
        for address in ["127.0.0.1", "::1"] + current { addAddress(address) }
        dnsNames = names
        self.addresses = addresses
    }

    /// Every name and address, separated by commas.
    public var description: String { (dnsNames + addresses).joined(separator: ", ") }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address in text, or nil when `text` is not one.
    public static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
