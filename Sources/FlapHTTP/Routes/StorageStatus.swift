import FlapCore
import FlapStorage
import FoundationEssentials

/// `/v1/status`'s `storage`: whether flapd can keep what it is given, and what to do if not.
struct StorageStatus: Encodable {
    /// `ok`, or the kind of the worst fault in force: `full`, `read-only`, `damaged`, `failing`.
    var state: String
    /// The directory the inbox is in (the state directory); the owner's to see.
    var directory: String?
    /// Bytes free there, and the filesystem's size.
    var freeBytes: Int64?
    var totalBytes: Int64?
    var faults: [Fault]
    /// Damaged files moved aside since flapd started.
    var movedAside: [StorageHealth.MovedAside]

    struct Fault: Encodable {
        var path: String?
        var kind: String
        var message: String?
    }

    /// What a member is shown: whether the board can keep their messages, not where or which files.
    var forMember: StorageStatus {
        var shown = self
        shown.directory = nil
        shown.faults = faults.map { Fault(path: nil, kind: $0.kind, message: nil) }
        shown.movedAside = []
        return shown
    }

    init(inbox: String, health: StorageHealth) {
        let directory = inbox.deletingLastPathComponent
        self.directory = directory
        let space = FilesystemSpace(path: directory)
        freeBytes = space?.freeBytes
        totalBytes = space?.totalBytes
        let faults = health.faults
        self.faults = faults.map { Fault(path: $0.path, kind: $0.kind.rawValue, message: $0.description) }
        let order: [StorageFault.Kind] = [.readOnly, .damaged, .failing, .full]
        state = order.first { kind in faults.contains { $0.kind == kind } }?.rawValue ?? (space?.readOnly == true ? "read-only" : "ok")
        movedAside = health.filesMovedAside
    }
}
