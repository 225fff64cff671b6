import Foundation
import Testing

@testable import FlapCore

@Suite struct SoundTests {
    /// What the API description's `quietHours` pattern allows, and nothing else.
    @Test func quietHoursAreHoursAndMinutesThatDiffer() {
        for text in ["22:00-07:00", "7:30-22:00", " 22:00 - 07:00 ", "0:00-00:01", "23:59-00:00"] {
            #expect(QuietHours(text) != nil, "\(text)")
        }
        for text in [
            "22:00-22:00", "7:00-07:00", "24:00-01:00", "22:60-07:00", "+7:00-08:00", "007:00-08:00", "7:0-08:00",
            "\t22:00-07:00", "22:00-07:00\n", "22:00--07:00", "22:00", "", "٢٢:00-07:00"
        ] {
            #expect(QuietHours(text) == nil, "\(text)")
        }
        #expect(QuietHours(" 7:05 - 22:00")?.description == "07:05-22:00")
    }

    @Test func theSynthesizedClackIsAShortDecayingBurstNotNoise() {
        let clack = ClackSample.synthesized()
        #expect(clack.rate == 48_000)
        #expect(clack.duration == .milliseconds(80))
        let peak = clack.samples.map(abs).max()!
        #expect(abs(peak - 0.6) < 0.001)
        // Loud at the strike, near silence by the end.
        func rms(_ range: Range<Int>) -> Float { (clack.samples[range].map { $0 * $0 }.reduce(0, +) / Float(range.count)).squareRoot() }
        #expect(rms(0..<480) > 20 * rms(1920..<2400))
        #expect(clack.samples.last == 0)
        #expect(clack == ClackSample.synthesized())
        #expect(clack != ClackSample.synthesized(seed: 2))
    }

    @Test func clacksLandAtTheirFramesScaledByGainAndVolume() {
        let events = [
            ClackEvent(time: .milliseconds(10), row: 0, column: 0, gain: 1.0),
            ClackEvent(time: .milliseconds(20), row: 0, column: 1, gain: 0.9)
        ]
        let track = ClackTrack(events: events, sample: .impulse(), rate: 48_000, volume: 0.5)
        #expect(track.length == 961)
        let frames = track.render(from: 0, count: 1000)
        #expect(frames.indices.filter { frames[$0] != 0 } == [480, 960])
        #expect(frames[480] == 0.5 && abs(frames[960] - 0.45) < 1e-6)
        // Any span renders the same as the whole.
        #expect(track.render(from: 900, count: 100) == Array(frames[900..<1000]))
    }

    @Test func manyOverlappingClacksAreSoftLimitedNeverClipped() {
        let events = (0..<132).map { ClackEvent(time: .milliseconds(5), row: 0, column: $0, gain: 1.1) }
        let track = ClackTrack(events: events, sample: .synthesized(), rate: 48_000)
        let frames = track.render(from: 0, count: track.length)
        let peak = frames.map(abs).max()!
        #expect(peak <= 1 && peak > 0.9)  // at most full scale: a knee, not a wrap-around
        #expect(track.render16(from: 0, count: track.length).allSatisfy { $0 != Int16.min })
        #expect(ClackTrack.softLimit(0.3) == 0.3)
        #expect(ClackTrack.softLimit(-2) > -1 && ClackTrack.softLimit(-2) < -0.9)
    }

    @Test func splicingKeepsWhatBeganAndAddsTheNewPlan() {
        let old = ClackTrack(
            events: [.init(time: .milliseconds(10), row: 0, column: 0, gain: 1), .init(time: .milliseconds(30), row: 0, column: 0, gain: 1)],
            sample: .impulse(), rate: 1000)
        let new = ClackTrack(events: [.init(time: .milliseconds(5), row: 0, column: 0, gain: 1)], sample: .impulse(), rate: 1000)
        let spliced = old.splicing(new, at: 20)
        let frames = spliced.render(from: 0, count: 40)
        #expect(frames.indices.filter { frames[$0] != 0 } == [10, 25])
    }

    @Test func wavFilesRoundTripAndResample() throws {
        let samples: [Int16] = (0..<4410).map { Int16(10_000 * sin(Double($0) * 2 * .pi * 441 / 44_100)) }
        let bytes = WAVFile.encode(mono: samples, rate: 44_100)
        let decoded = try WAVFile.decode(bytes, name: "tone.wav")
        #expect(decoded.rate == 44_100 && decoded.samples.count == 4410)
        #expect(abs(decoded.samples[100] - Float(samples[100]) / 32768) < 1e-6)
        // 441 Hz survives the trip to 48 kHz: same amplitude, same period in frames.
        let at48 = decoded.resampled(to: 48_000)
        #expect(at48.samples.count == 4800)
        let middle = at48.samples[1000..<3800]
        #expect(abs(middle.max()! - 10_000 / 32768) < 0.01)
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(crossings == 25 || crossings == 26)  // 441 Hz over 2 800 frames at 48 kHz
    }

    @Test func twentyFourBitStereoIsReadAndMixedToMono() throws {
        var bytes: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + [16, 0, 0, 0, 1, 0, 2, 0] + le32(96_000) + le32(96_000 * 6) + [6, 0, 24, 0]
        let frames: [(Int32, Int32)] = [(4_194_304, 0), (-4_194_304, -4_194_304)]  // 0.5/0 and −0.5/−0.5
        bytes += Array("data".utf8) + le32(frames.count * 6)
        for (l, r) in frames { bytes += le24(l) + le24(r) }
        let sample = try WAVFile.decode(bytes, name: "s.wav")
        #expect(sample.rate == 96_000)
        #expect(sample.samples == [0.25, -0.5])
    }

    @Test func badFilesSayWhatIsWrong() {
        func problem(_ bytes: [UInt8]) -> String? {
            do { _ = try WAVFile.decode(bytes, name: "x.wav"); return nil } catch { return error.problem }
        }
        #expect(problem(Array("hello".utf8)) == "not a WAV file (no RIFF/WAVE header)")
        var float = WAVFile.encode(mono: [1, 2], rate: 48_000)
        float[20] = 3  // format tag: IEEE float
        #expect(problem(float) == "format 3 is not PCM; save it as 16- or 24-bit PCM")
        var eight = WAVFile.encode(mono: [1, 2], rate: 48_000)
        eight[34] = 8
        #expect(problem(eight) == "8-bit samples; use 16- or 24-bit PCM")
        #expect(
            problem(WAVFile.encode(mono: [Int16](repeating: 1, count: 96_000), rate: 48_000))
                == "2000 ms long; a clack sample may be at most 1 second")
        #expect(problem(WAVFile.encode(mono: [], rate: 48_000)) == "no samples")
    }

    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func le24(_ v: Int32) -> [UInt8] { (0..<3).map { UInt8(truncatingIfNeeded: v >> (8 * Int32($0))) } }
}
