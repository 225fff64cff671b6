import Crypto
import FoundationEssentials

/// The secrets people hold (session cookies, invitation links, members' keys): 256 random bits in
/// base64url, 43 characters. flapd keeps only their SHA-256, so its files let no one in, and finds
/// one by that digest (a dictionary lookup: never a comparison with every secret it knows).
public enum AccessToken {
    /// A new secret.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: "")
    }

    /// Whether `token` has the form ``random()`` gives, so anything else is refused unread.
    public static func wellFormed(_ token: String) -> Bool {
        token.utf8.count == 43
            && token.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// The digest flapd stores in place of `token`, in hex.
    public static func digest(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
