import NIOCore

/// The machine's current IP addresses, as the certificate should name them: every interface's
/// IPv4 and IPv6 address but IPv6 link-local ones (fe80::/10), which need a zone to be reached and
/// cannot be put in a URL a phone opens.
public enum NetworkAddresses {
    /// The addresses now.
    public static func current() -> [String] {
        guard let devices = try? System.enumerateDevices() else { return [] }
        var found: [String] = []
        for device in devices {
            guard let address = device.address?.ipAddress, !found.contains(address) else { continue }
            if let bytes = ServerNames.addressBytes(address), bytes.count == 16, bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { continue }
            found.append(address)
        }
        return found.sorted()
    }
}
