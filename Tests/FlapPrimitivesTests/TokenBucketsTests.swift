import FlapPrimitives
import Testing

@Suite struct TokenBucketsTests {
    @Test func aBurstThenTheRateAndEachKeyOnItsOwn() {
        var buckets = TokenBuckets<String>(burst: 3, perSecond: 0.5)
        for _ in 0..<3 { #expect(buckets.take("a", at: 100) == nil) }
        #expect(buckets.take("a", at: 100) == 2, "one more comes in 2 s")
        #expect(buckets.take("b", at: 100) == nil, "another key has its own")
        #expect(buckets.take("a", at: 101) == 1)
        #expect(buckets.take("a", at: 102) == nil)
        // Quiet long enough, the burst is there again, never more.
        for _ in 0..<3 { #expect(buckets.take("a", at: 1_000) == nil) }
        #expect(buckets.take("a", at: 1_000) != nil)
    }

    @Test func atMostSoManyKeysAreRemembered() {
        var buckets = TokenBuckets<Int>(burst: 1, perSecond: 1, keys: 10)
        for key in 0..<1_000 { #expect(buckets.take(key, at: Double(key)) == nil) }
        // The newest keys are still held to their rate; the oldest were full again and forgotten.
        #expect(buckets.take(999, at: 999) == 1)
    }
}
