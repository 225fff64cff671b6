import FoundationEssentials
import Glibc

/// Reads the small files flapd keeps (members, presence, settings, keys) within a size budget:
/// at most the budget and one byte more is ever read, whatever the file's size, so a file grown
/// by a bug or by hand cannot take flapd's memory. The size is told by reading, not by
/// `FileManager`'s attributes (whose `.size` is not an `Int` on Linux).
public enum SmallFile {
    /// The largest file that holds one key or token on its first line.
    public static let largestKeyFile = 4096

    /// The JSON file at `path` (within `largest` bytes) decoded as `T`, its dates in seconds
    /// since 1970; nil when there is none. `what` names it in a ``Failure/notRead(path:as:)``.
    public static func decode<T: Decodable>(_ type: T.Type, at path: String, largest: Int, what: String) throws(Failure) -> T? {
        guard let data = try read(path, largest: largest) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let value = try? decoder.decode(T.self, from: data) else { throw .notRead(path: path, as: what) }
        return value
    }

    /// The lines of a text file flapd keeps for itself; none when it is missing, unreadable or
    /// over `largest` bytes (it is then written afresh).
    public static func lines(_ path: String, largest: Int) -> [Substring] {
        guard let data = (try? read(path, largest: largest)).flatMap({ $0 }) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    /// Why a file was not read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file holds more than `largest` bytes.
        case tooLarge(path: String, largest: Int)
        /// It could not be opened or read (`errno`).
        case unreadable(path: String, errno: Int32)
        /// It was read but does not hold what it should (`what`: "the members file's JSON").
        case notRead(path: String, as: String)

        /// What went wrong, naming the file.
        public var description: String {
            switch self {
            case .tooLarge(let path, let largest): "\(path) is larger than \(StorageFault.bytes(Int64(largest))), the most it may hold"
            case .unreadable(let path, let code): "\(path) cannot be read: \(String(cString: strerror(code)))"
            case .notRead(let path, let what): "\(path) is not \(what)"
            }
        }
    }

    /// The bytes of the file at `path`, or nil when there is none. Throws ``Failure/tooLarge`` for a
    /// file over `largest` bytes (after reading at most `largest + 1`), ``Failure/unreadable`` otherwise.
    public static func read(_ path: String, largest: Int) throws(Failure) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, errno: errno)
        }
        defer { close(descriptor) }
        // Grown as the file turns out larger, never past the budget and one byte.
        var bytes = [UInt8](repeating: 0, count: min(largest + 1, 16 * 1024))
        var count = 0
        while count <= largest {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: min(bytes.count, largest + 1 - bytes.count)) }
            let got = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.read(descriptor, $0 + count, buffer.count - count) } ?? 0
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if got == 0 { break }
            count += got
        }
        guard count <= largest else { throw .tooLarge(path: path, largest: largest) }
        return Data(bytes[..<count])
    }
}
