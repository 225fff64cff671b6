import FlapCore
import FlapStorage
import FoundationEssentials

extension Secret {
    /// The secret, read from its file if it is in one; errors say which file and never show its
    /// content.
    func read(purpose: String) throws -> String {
        switch self {
        case .value(let value):
            return value
        case .file(let path):
            let data: Data?
            do { data = try SmallFile.read(path, largest: StateDirectory.largestKeyFile) } catch SmallFile.Failure.tooLarge {
                throw ServiceError(
                    .files,
                    "the \(purpose) file \(path) is larger than \(StateDirectory.largestKeyFile) bytes; it should hold the key on one line"
                )
            } catch { data = nil }
            guard let data else {
                throw ServiceError(.files, "cannot read the \(purpose) file \(path): check that it exists and that flapd may read it")
            }
            let value = String(decoding: data, as: UTF8.self).trimmed
            guard !value.isEmpty else { throw ServiceError(.files, "the \(purpose) file \(path) is empty") }
            return value
        }
    }
}
