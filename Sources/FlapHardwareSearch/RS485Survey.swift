import FlapHardware

/// The modules found on an RS-485 bus, read from whatever it carries: each `d` or `v` answer from
/// an ID that was asked, and each serial number announced; everything else (other answers,
/// noise, an ID not asked) is passed over. At most ``budget`` bytes are read.
public struct RS485Survey: Sendable {
    /// The most bytes read: 32 dumps of 64 stored flaps are about 16 KB.
    public static let budget = 64 * 1024
    /// The IDs asked: an answer from another is passed over.
    public let ids: ClosedRange<Int>
    /// The most unnumbered modules listed (a bus carries at most 254 modules with IDs).
    public static let mostUnnumbered = 254
    /// Each module that answered, by its ID.
    public private(set) var found: [Int: RS485ModuleFound] = [:]
    /// The serial numbers announced by modules with no ID, in the order heard.
    public private(set) var unnumbered: [String] = []
    /// Bytes read so far.
    public private(set) var read = 0
    private var reader = RS485AnswerReader()

    /// A survey of the answers of `ids`, nothing read yet.
    public init(ids: ClosedRange<Int>) { self.ids = ids }

    /// Whether no more is read.
    public var isFull: Bool { read >= Self.budget }

    /// Takes the next bytes from the bus.
    public mutating func take(_ bytes: some Collection<UInt8>) {
        let taken = Array(bytes.prefix(max(0, Self.budget - read)))
        read += taken.count
        for case .success(let answer) in reader.read(taken) {
            switch answer {
            case .dump(let id, let offset, let steps, let positions) where ids.contains(id):
                var module = found[id] ?? RS485ModuleFound(id: id, stepsPerRevolution: nil, offset: nil, storedFlaps: nil)
                (module.stepsPerRevolution, module.offset, module.storedFlaps) = (steps, offset, positions.count)
                found[id] = module
            case .version(let id, let version, let serial) where ids.contains(id):
                var module = found[id] ?? RS485ModuleFound(id: id, stepsPerRevolution: nil, offset: nil, storedFlaps: nil)
                (module.firmware, module.version, module.serial) = ("universal", version, serial)
                found[id] = module
            case .about(let id, _, _, let flaps?) where ids.contains(id):
                var module = found[id] ?? RS485ModuleFound(id: id, stepsPerRevolution: nil, offset: nil, storedFlaps: nil)
                module.flaps = flaps
                found[id] = module
            case .announcement(let serial) where !unnumbered.contains(serial) && unnumbered.count < Self.mostUnnumbered:
                unnumbered.append(serial)
            default:
                break
            }
        }
    }

    /// The modules found, by ID, and those announcing themselves, or nil when none said anything.
    public var answer: SerialAnswer? {
        found.isEmpty && unnumbered.isEmpty ? nil : .rs485(modules: found.values.sorted { $0.id < $1.id }, unnumbered: unnumbered)
    }
}
