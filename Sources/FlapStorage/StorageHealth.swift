import FoundationEssentials
import Logging
import Synchronization

/// What flapd knows of its storage now: the faults in force (one per file), and the damaged
/// files it moved aside at start. Each fault is logged once when it begins and once when it
/// ends, not once per failed write, so a full disk does not fill the journal too.
public final class StorageHealth: Sendable {
    private struct State {
        var faults: [String: StorageFault] = [:]
        var movedAside: [MovedAside] = []
        /// Tables and columns with a row that could not be read, each said once.
        var unreadable: Set<String> = []
    }

    /// A damaged file flapd moved aside at start, to start afresh without deleting anything.
    public struct MovedAside: Sendable, Equatable, Codable {
        /// Where the file was.
        public var path: String
        /// Where it is now.
        public var movedTo: String
        /// What was wrong with it.
        public var reason: String
        /// When.
        public var at: Date
    }

    private let state = Mutex(State())
    private let logger: Logger

    /// Health with no fault yet, logging to `logger`.
    public init(logger: Logger = Logger(label: "flapd.storage")) {
        self.logger = logger
    }

    /// Records that an operation on `path` failed with `error`. Returns the storage fault behind
    /// it, or nil when it was not one (the caller handles it as before).
    @discardableResult
    public func failed(_ error: any Error, path: String) -> StorageFault? {
        guard let fault = StorageFault(error, path: path) else { return nil }
        let isNew = state.withLock { state -> Bool in
            let previous = state.faults[path]
            state.faults[path] = fault
            return previous?.kind != fault.kind
        }
        if isNew {
            var metadata: Logger.Metadata = ["path": "\(path)", "fault": "\(fault.kind.rawValue)"]
            if let free = fault.freeBytes { metadata["free"] = "\(StorageFault.bytes(free))" }
            logger.error("\(fault.description)", metadata: metadata)
        }
        return fault
    }

    /// `decode` of one row of `table` in `path`, or nil when the row cannot be read (a value that
    /// is not what flapd wrote: the file damaged or edited by hand). Such a row is skipped and
    /// said once per table and column, with the file, so one bad row never stops flapd.
    public func readable<T>(_ table: String, in path: String, _ decode: () throws -> T) rethrows -> T? {
        do {
            return try decode()
        } catch let error as SQLiteRowError {
            report(table, in: path, column: error.column, problem: "\(error)")
            return nil
        } catch let error as DecodingError {
            report(table, in: path, column: "body", problem: "what it holds is not JSON flapd wrote (\(error))")
            return nil
        }
    }

    private func report(_ table: String, in path: String, column: String, problem: String) {
        let isNew = state.withLock { $0.unreadable.insert("\(path)|\(table)|\(column)").inserted }
        if isNew {
            logger.error("a row of \(table) in \(path) cannot be read and is skipped: \(problem)", metadata: ["path": "\(path)", "table": "\(table)"])
        }
    }

    /// Records that an operation on `path` succeeded: a fault in force there has ended.
    public func succeeded(path: String) {
        // The common case (no fault anywhere) takes the lock once and changes nothing.
        guard let ended = state.withLock({ $0.faults.removeValue(forKey: path) }) else { return }
        logger.notice("\(path) can be written again; carrying on", metadata: ["path": "\(path)", "fault": "\(ended.kind.rawValue)"])
    }

    /// Runs `work` on the file at `path` and records how it went: a success ends a fault there,
    /// a storage fault is recorded and thrown as a ``StorageFault``; any other error is thrown as it is.
    public func recording<T>(path: String, _ work: () throws -> T) throws -> T {
        do {
            let value = try work()
            succeeded(path: path)
            return value
        } catch {
            throw failed(error, path: path) ?? error
        }
    }

    /// ``recording(path:_:)`` for asynchronous work.
    public func recording<T>(path: String, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T) async throws -> T {
        do {
            let value = try await work()
            succeeded(path: path)
            return value
        } catch {
            throw failed(error, path: path) ?? error
        }
    }

    /// Records that the damaged file at `path` was moved to `movedTo`.
    public func movedAside(_ path: String, to movedTo: String, reason: String, at: Date = Date()) {
        state.withLock { $0.movedAside.append(MovedAside(path: path, movedTo: movedTo, reason: reason, at: at)) }
        logger.error(
            "\(path) was damaged (\(reason)); moved aside to \(movedTo), kept for inspection; starting with an empty one",
            metadata: ["path": "\(path)", "movedTo": "\(movedTo)"])
    }

    /// The faults in force, by path.
    public var faults: [StorageFault] { state.withLock { $0.faults.values.sorted { $0.path < $1.path } } }

    /// The damaged files moved aside since flapd started.
    public var filesMovedAside: [MovedAside] { state.withLock { $0.movedAside } }
}
