/// Why a request to a board did not succeed, sorted by what to do about it.
public enum VestaboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The board refused it for good (400, 401, 403): retrying cannot help.
    case refused(status: Int, message: String)
    /// Too many requests: try again after this long.
    case rateLimited(retryAfter: Duration)
    /// Worth trying again: a 5xx answer, a timeout, a refused or dropped connection.
    case transient(String)

    /// Whether retrying cannot help.
    public var isFinal: Bool {
        if case .refused = self { return true }
        return false
    }

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .refused(401, _): "the board refused the key or token (401): check it"
        case .refused(403, _): "the board refused access (403): check the key's permissions"
        case .refused(let status, let message): "the board refused the message (\(status))\(message.isEmpty ? "" : ": \(message)")"
        case .rateLimited(let wait): "too many requests (429); the board asks to wait \(wait.components.seconds) s"
        case .transient(let reason): reason
        }
    }
}
