import ArgumentParser
import Foundation
import Testing

@testable import FlapControl

/// The `--jsonl` reader that skips JSONDecoder: what it reads is what JSONDecoder reads, and
/// what it does not fully understand it leaves to JSONDecoder.
@Suite struct LayoutRequestReaderTests {
    func decoded(_ line: String) -> LayoutRequest? {
        try? JSONDecoder().decode(LayoutRequest.self, from: Data(line.utf8))
    }

    @Test(arguments: [
        #"{"text": "Dinner at 7"}"#,
        #"  { "text" : "x" , "align":"left", "valign": null }  "#,
        #"{"text": "Caf\u00e9 \"quoted\" back\\slash\/ tab\t new\nline", "valign": "top"}"#,
        #"{"text": "smile \ud83d\ude00 and é raw", "margin": -2, "maxRows": 3, "columns": 15}"#,
        #"{"text": "", "fill": 63, "breaks": [0, "red", 44], "substitutions": false}"#,
        #"{"breaks": [], "text": "last", "fill": "blue", "substitutions": true}"#,
        #"{"text": "A", "margin": 0}"#
    ])
    func readsWhatJSONDecoderReads(_ line: String) throws {
        let read = try #require(LayoutRequestReader.read(line), "\(line)")
        #expect(read == decoded(line))
    }

    @Test(arguments: [
        #"{"text": "x", "other": 1}"#,  // a field it does not know
        #"{"text": "x", "text": "y"}"#,  // a duplicate
        #"{"text": "x", "margin": 3.0}"#,  // a fraction
        #"{"text": "x", "margin": 1e2}"#,  // an exponent
        #"{"text": "x", "margin": 01}"#,  // a leading zero
        #"{"text": "x"} trailing"#,
        #"{"text": "x",}"#,
        "{\"text\": \"tab\there\"}",  // a raw control character
        #"{"text": "\ud83d alone"}"#,  // half a surrogate pair
        #"{"text": "\q"}"#,
        #"{"align": "left"}"#,  // no text
        #"{"text": 3}"#,
        "not json",
        ""
    ])
    func leavesTheRestToJSONDecoder(_ line: String) {
        #expect(LayoutRequestReader.read(line) == nil, "\(line)")
    }
}

/// `flapctl layout --jsonl` with no other argument skips the argument parser; its defaults must
/// be the parser's own.
@Suite struct LayoutDefaultsTests {
    @Test func theDirectJSONLinesEntryUsesTheParsersDefaults() throws {
        #expect(try LayoutArguments.parse([]).options() == LayoutArguments.defaultOptions)
    }
}
