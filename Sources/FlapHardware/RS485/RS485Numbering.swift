/// What flapd knows of a wall's numbering (``NumbersModules``): who answers at each place, the
/// temporary IDs lent to modules so they can show their mark, and which one shows it.
struct RS485Numbering: Sendable {
    /// What is known of one place.
    enum Place: Sendable, Equatable {
        /// Not asked yet.
        case unknown
        /// Asked, and nothing answered to its ID.
        case silent
        /// A module answers to its ID: by its serial number, or nil (firmware v7 says none).
        case answers(serial: String?)
    }

    /// Each place, row-major.
    var places: [Place]
    /// Modules lent an ID until they are placed, by serial number.
    var lent: [String: Int] = [:]
    /// The module that shows the mark.
    var marked: String?

    /// Nothing known yet of `count` places.
    init(count: Int) {
        places = Array(repeating: .unknown, count: count)
    }

    /// Where the module `serial` answers, if it has a place.
    func place(of serial: String) -> Int? {
        places.firstIndex { $0 == .answers(serial: serial) }
    }

    /// An ID to lend: the highest one no place and no lent module has (a module of Universal
    /// Firmware takes 1 to 254), nil when none is free.
    func idToLend(besides ids: [Int]) -> Int? {
        let taken = Set(ids).union(lent.values)
        return (1...254).reversed().first { !taken.contains($0) }
    }
}
