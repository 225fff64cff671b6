import FlapPrimitives
import Testing

@testable import FlapCore

/// The clacks' radix sort against a plain stable sort, on the kinds of times plans make: whole
/// milliseconds (sorted on milliseconds), nanoseconds from a stepper's profile, spans from none to
/// years, and ties.
@Suite struct TimeOrderTests {
    static func reference(_ times: [Int64]) -> [Int] {
        times.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
    }

    @Test(arguments: [1 as Int64, 1_000, 1_000_000, 1_000_000_000])
    func theOrderIsAStableSortsWhateverTheUnit(unit: Int64) {
        var random = SeededRandom(seed: UInt64(unit))
        for span in [0, 1, 7, 2_000, 9_000, 40_000_000] as [UInt64] {
            let times = (0..<3_000).map { _ in Int64(span == 0 ? 0 : random.next() % span) * unit + (unit == 1 ? 0 : 5 * unit) }
            #expect(TimeOrder.indices(times) == Self.reference(times), "unit \(unit), span \(span)")
        }
        // Milliseconds but one: sorted on nanoseconds, still right.
        let mixed = (0..<500).map { Int64($0 % 17) * 1_000_000 } + [1_500_001, 3]
        #expect(TimeOrder.indices(mixed) == Self.reference(mixed))
    }

    @Test func extremesAndTinyInputs() {
        #expect(TimeOrder.indices([]) == [])
        #expect(TimeOrder.indices([42]) == [0])
        let wide: [Int64] = [.max, .min, 0, -1, .max, .min]
        #expect(TimeOrder.indices(wide) == Self.reference(wide))
    }
}
