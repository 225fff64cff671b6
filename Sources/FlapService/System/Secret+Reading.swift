import FlapCore
import FoundationEssentials

extension Secret {
    /// The secret, read from its file if it is in one; errors say which file and never show its
    /// content.
    func read(purpose: String) throws -> String {
        switch self {
        case .value(let value):
            return value
        case .file(let path):
            if let size = StateDirectory.size(of: path), size > StateDirectory.largestKeyFile {
                throw ServiceError(
                    .files,
                    "the \(purpose) file \(path) is \(size) bytes; it should hold the key on one line (at most \(StateDirectory.largestKeyFile) bytes)"
                )
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ServiceError(.files, "cannot read the \(purpose) file \(path): check that it exists and that flapd may read it")
            }
            let value = text.trimmed
            guard !value.isEmpty else { throw ServiceError(.files, "the \(purpose) file \(path) is empty") }
            return value
        }
    }
}
