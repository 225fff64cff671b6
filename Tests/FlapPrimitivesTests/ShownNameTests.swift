import FlapPrimitives
import Testing

/// Names people read in a list or a terminal: bounded in characters and bytes, nothing invisible,
/// and one each as a person reads them.
@Suite struct ShownNameTests {
    @Test func aNameIsBoundedInCharactersAndBytesAndHoldsNothingInvisible() {
        #expect(ShownName.problem("Mum") == nil)
        #expect(ShownName.problem("Café ☕ 👩‍👧") == nil)
        #expect(ShownName.problem("") != nil)
        #expect(ShownName.problem(String(repeating: "a", count: 41)) == "at most 40 characters, not 41")
        // Forty characters heaped with combining marks: 24 KB.
        let heaped = String(repeating: "a" + String(repeating: "\u{301}", count: 300), count: 40)
        #expect(heaped.count == 40 && heaped.utf8.count > 24_000)
        #expect(ShownName.problem(heaped) == "at most 160 bytes of UTF-8, not \(heaped.utf8.count)")
        #expect(ShownName.problem("\u{1B}[2J\u{1B}]0;pwned\u{07}") == "must not hold control characters: U+001B at position 1")
        #expect(ShownName.problem("mum\u{202E}txt") != nil)
    }

    @Test func namesAlikeToAPersonAreOne() {
        let alice = ShownName.likeness("Alice")
        for same in ["alice", "ALICE", " Alice ", "Ａｌｉｃｅ", "\u{410}lice", "Al\u{456}ce"] {
            #expect(ShownName.likeness(same) == alice, "\(same)")
        }
        #expect(ShownName.likeness("Alicia") != alice)
    }
}
