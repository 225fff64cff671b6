import FlapPrimitives
import Testing

/// The published reference values: stored ids, entity tags, room codes and members' names depend
/// on these functions never changing.
@Suite struct HashingAndRandomnessTests {
    @Test func fnv1aGivesTheReferenceHashes() {
        // The FNV reference test vectors (64-bit FNV-1a).
        #expect(FNV1a.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(FNV1a.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(FNV1a.hash("foobar") == 0x8594_4171_f739_67e8)
        var bytes = FNV1a()
        bytes.add(Array("foobar".utf8))
        #expect(bytes.entityTag == "\"85944171f73967e8\"")
    }

    @Test func splitMix64GivesTheReferenceSequence() {
        // SplitMix64 from seed 0 (Vigna's reference implementation).
        var random = SeededRandom(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func unitValuesStayBelowOneAndRangesInsideThemselves() {
        var random = SeededRandom(seed: 20261126)
        for _ in 0..<10_000 {
            let unit = random.unit()
            #expect(unit >= 0 && unit < 1)
            let value = random.next(in: 40...180)
            #expect(value >= 40 && value <= 180)
        }
    }

    @Test func theSameSeedGivesTheSameSequence() {
        var a = SeededRandom(seed: 7), b = SeededRandom(seed: 7)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }
}
