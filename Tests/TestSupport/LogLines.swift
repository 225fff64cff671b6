import Logging
import Synchronization

/// What a test's logger said: each message with its metadata, in order.
public final class LogLines: Sendable {
    private let said = Mutex<[String]>([])

    public init() {}

    /// A logger that records here, at every level.
    public var logger: Logger {
        Logger(label: "test") { [self] _ in Handler(lines: self) }
    }

    /// Every line: its level, its message, then its metadata as `key=value`.
    public var all: [String] { said.withLock { $0 } }

    fileprivate func append(_ line: String) { said.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(
            level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String, file: String,
            function: String, line: UInt
        ) {
            let merged = metadata.merging(extra ?? [:]) { $1 }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append(([level.rawValue, message.description] + fields).joined(separator: " "))
        }
    }
}
