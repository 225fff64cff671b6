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
                throw ServiceError.secretTooLarge(purpose: purpose, path: path, largest: StateDirectory.largestKeyFile)
            } catch { data = nil }
            guard let data else {
                throw ServiceError.unreadableSecret(purpose: purpose, path: path)
            }
            let value = String(decoding: data, as: UTF8.self).trimmed
            guard !value.isEmpty else { throw ServiceError.emptySecret(purpose: purpose, path: path) }
            return value
        }
    }
}
