import FlapPrimitives

/// The order in which modules start moving.
public enum TransitionStrategy: String, CaseIterable, Sendable, Codable {
    /// The default: column c, row r starts at c × 20 ms + r × 50 ms.
    case cascade
    /// Vestaboard's strategies: groups of `stepSize` start every `stepInterval`.
    /// Columns left to right.
    case column
    /// Columns right to left.
    case reverseColumn = "reverse-column"
    /// Columns from both edges towards the centre.
    case edgesToCenter = "edges-to-center"
    /// Rows top to bottom.
    case row
    /// Diagonals (row + column) from the top-left corner.
    case diagonal
    /// Modules in a seeded random order.
    case random

    /// The interval between groups when none is given, chosen so a 6×22 board starts within
    /// about a second. Cascade has fixed offsets and ignores step size and interval.
    public var defaultStepInterval: Duration {
        switch self {
        case .cascade: .zero
        case .column, .reverseColumn, .diagonal: .milliseconds(40)
        case .edgesToCenter: .milliseconds(80)
        case .row: .milliseconds(150)
        case .random: .milliseconds(8)
        }
    }
}

/// How a transition unfolds over the board: strategy, grouping and seed.
public struct Transition: Sendable, Equatable {
    /// The order in which modules start.
    public var strategy: TransitionStrategy
    /// Columns, rows, diagonals or modules (for random) started together. At least 1.
    public var stepSize: Int
    /// Time between one group's start and the next.
    public var stepInterval: Duration
    /// Seeds the random order and the clack gains.
    public var seed: UInt64

    /// The default transition: cascade, seed 0.
    public init(
        strategy: TransitionStrategy = .cascade, stepSize: Int? = nil,
        stepIntervalMs: Int? = nil, seed: UInt64 = 0
    ) throws(PlanError) {
        let size = stepSize ?? 1
        guard size >= 1 else { throw PlanError("step size must be at least 1, not \(size)") }
        if let ms = stepIntervalMs, !(0...10_000).contains(ms) {
            throw PlanError("step interval must be 0 to 10000 ms, not \(ms)")
        }
        self.strategy = strategy
        self.stepSize = size
        self.stepInterval = stepIntervalMs.map { .milliseconds($0) } ?? strategy.defaultStepInterval
        self.seed = seed
    }

    /// When each module starts, row-major, for a board of `size`.
    public func startOffsets(for size: BoardSize) -> [Duration] {
        let columns = size.columns
        func group(_ r: Int, _ c: Int) -> Int {
            switch strategy {
            case .cascade, .random: 0
            case .column: c / stepSize
            case .reverseColumn: (columns - 1 - c) / stepSize
            case .edgesToCenter: min(c, columns - 1 - c) / stepSize
            case .row: r / stepSize
            case .diagonal: (r + c) / stepSize
            }
        }
        switch strategy {
        case .cascade:
            return (0..<size.count).map { i in .milliseconds((i % columns) * 20 + (i / columns) * 50) }
        case .random:
            var order = Array(0..<size.count)
            var random = SeededRandom(seed: seed)
            order.shuffle(using: &random)
            var offsets = [Duration](repeating: .zero, count: size.count)
            for (rank, module) in order.enumerated() { offsets[module] = stepInterval * (rank / stepSize) }
            return offsets
        default:
            return (0..<size.count).map { i in stepInterval * group(i / columns, i % columns) }
        }
    }
}

/// A plan that cannot be made: bad timing, sizes that do not match.
public struct PlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the transition asked for.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
