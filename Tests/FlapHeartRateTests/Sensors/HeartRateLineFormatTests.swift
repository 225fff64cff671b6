import FlapHardware
import FlapHeartRate
import Testing

@Suite struct HeartRateLineFormatTests {
    @Test func theThreeFormsAreRead() throws {
        let auto = HeartRateLineFormat.automatic
        #expect(try auto.read("72").bpm == 72)
        #expect(try auto.read(" 72 ").bpm == 72)
        #expect(try auto.read("HR:72").bpm == 72)
        #expect(try auto.read("BPM: 64").bpm == 64)
        let json = try auto.read(#"{"bpm":72,"rr":[812, 790]}"#)
        #expect(json.bpm == 72 && json.rrIntervals == [831, 809])  // ms × 1.024, rounded
        #expect(try auto.read(#"{"bpm": 60, "contact": false}"#).contact == .notDetected)
        #expect(try HeartRateLineFormat.prefixed("HR=").read("HR=99").bpm == 99)
        #expect(HeartRateLineFormat(configuration: "prefix:HR:") == .prefixed("HR:"))
        #expect(HeartRateLineFormat(configuration: "auto") == .automatic)
        #expect(HeartRateLineFormat(configuration: "xml") == nil)
    }

    @Test func rubbishIsRefusedWithItsColumn() {
        let cases: [(HeartRateLineFormat, String, Int, String)] = [
            (.automatic, "72x", 3, "unexpected \"x\" after the number"),
            (.automatic, "hello", 1, "not a number"),
            (.number, "", 1, "the line ends"),
            (.number, "999", 1, "999 BPM is not a heart rate"),
            (.prefixed("HR:"), "HX:72", 2, "expected the prefix"),
            (.json, #"{"bpm":72,"rr":[812,}"#, 21, "expected a number, found \"}\""),
            (.json, #"{"bpm":"72"}"#, 8, "\"bpm\" is not a number"),
            (.json, #"{"rate":72}"#, 1, "no \"bpm\""),
            (.json, #"{"bpm":72,"rr":[5000]}"#, 16, "5000.0 ms is not a beat"),
            (.json, #"{"bpm":72} trailing"#, 12, "unexpected \"t\"")
        ]
        for (format, line, column, words) in cases {
            #expect {
                _ = try format.read(line)
            } throws: { error in
                guard let error = error as? HeartRateDecodingError else { return false }
                return error.unit == "column" && error.position == column && error.problem.contains(words)
            }
        }
    }
}
