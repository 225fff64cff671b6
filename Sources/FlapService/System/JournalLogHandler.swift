import FoundationEssentials
import Logging

/// Logs one line per event on stderr: `<priority>message key=value …`. The `<N>` prefix (sd-daemon
/// priorities) is written only when stderr is the journal (systemd sets JOURNAL_STREAM), so the
/// journal files each line at its level and a terminal stays readable.
public struct JournalLogHandler: LogHandler {
    /// The least level logged.
    public var logLevel: Logger.Level
    /// Metadata on every line.
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let prefixed: Bool
    /// Where each line goes: stderr, or (for flapd run inside the tests' process) a log of its own.
    private let write: (@Sendable (String) -> Void)?

    /// A handler for `label` at `level`, prefixing priorities when `environment` says stderr is the journal, writing to `write` (nil: stderr).
    public init(
        label: String, level: Logger.Level, environment: [String: String] = ProcessInfo.processInfo.environment,
        write: (@Sendable (String) -> Void)? = nil
    ) {
        self.label = label
        logLevel = level
        prefixed = environment["JOURNAL_STREAM"] != nil
        self.write = write
    }

    /// One metadata value.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line: the priority (for the journal), the message and its metadata.
    public func log(event: LogEvent) {
        var line = prefixed ? "<\(Self.priority(event.level))>" : "\(event.level.rawValue.uppercased()) "
        line += event.message.description
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line += "\n"
        if let write { write(line) } else { StandardStreams.error(line) }
    }

    /// syslog priorities: 7 debug … 2 critical.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
