import FlapStorage
import FlapTOML
import FoundationEssentials

/// `settings.toml` in the state directory: the settings changed from the page, as TOML a person
/// can read. Written whole with ``DurableFile`` (a power cut leaves the old file or the new one),
/// read within ``largest`` bytes.
public struct SettingsFile: Sendable {
    /// Its path.
    public let path: String

    /// The most it may hold: every setting of flapd changed, many times over.
    public static let largest = 64 * 1024

    /// The file at `path`.
    public init(path: String) { self.path = path }

    /// Why it was not read.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Too large, or unreadable.
        case notRead(SmallFile.Failure)
        /// Not TOML: where and why.
        case notTOML(path: String, TOMLSyntaxError)

        /// What went wrong, naming the file.
        public var description: String {
            switch self {
            case .notRead(let failure): failure.description
            case .notTOML(let path, let error): "\(path): \(error); correct it, or remove the file to start again from flapd.toml"
            }
        }
    }

    /// The page's settings, or an empty table when there are none yet.
    public func read() throws(Failure) -> TOMLTable {
        let data: Data?
        do { data = try SmallFile.read(path, largest: Self.largest) } catch { throw .notRead(error) }
        guard let data else { return TOMLTable() }
        do { return try TOMLParser.parse(String(decoding: data, as: UTF8.self)) } catch { throw .notTOML(path: path, error) }
    }

    /// Keeps `table` as the page's settings: the old file or this one, whatever happens.
    public func write(_ table: TOMLTable) throws {
        let text = Self.heading + (table.keys.isEmpty ? "" : "\n" + TOMLWriter.document(table))
        guard text.utf8.count <= Self.largest else {
            throw SmallFile.Failure.tooLarge(path: path, largest: Self.largest)
        }
        try DurableFile.write(Data(text.utf8), to: path)
    }

    static let heading = """
        # The settings changed from VestaWidget's page, over those of flapd.toml. flapd writes
        # this file whole; a setting taken back on the page ("Use the file's value") leaves it.

        """
}
