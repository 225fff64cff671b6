/// WAV files: reading a configured clack sample (16- or 24-bit PCM, any channels, any rate),
/// writing a plan's track (mono, 16-bit).
public enum WAVFile {
    /// The sample in `bytes`, channels averaged to mono, at the file's rate. `name` appears in errors.
    public static func decode(_ bytes: [UInt8], name: String) throws(WAVError) -> ClackSample {
        func fail(_ problem: String) -> WAVError { WAVError(file: name, problem: problem) }
        guard bytes.count >= 12, ascii(bytes, 0) == "RIFF", ascii(bytes, 8) == "WAVE" else {
            throw fail("not a WAV file (no RIFF/WAVE header)")
        }
        var offset = 12
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var data: ArraySlice<UInt8>?
        while offset + 8 <= bytes.count {
            let id = ascii(bytes, offset)
            let size = Int(le32(bytes, offset + 4))
            let body = offset + 8
            guard body + size <= bytes.count || id == "data" else { throw fail("chunk \(id) runs past the end of the file") }
            let end = min(bytes.count, body + size)
            if id == "fmt " {
                guard size >= 16 else { throw fail("the fmt chunk is too short") }
                var tag = Int(le16(bytes, body))
                if tag == 0xFFFE, size >= 40 { tag = Int(le16(bytes, body + 24)) }  // WAVE_FORMAT_EXTENSIBLE: the subformat
                format = (tag, Int(le16(bytes, body + 2)), Int(le32(bytes, body + 4)), Int(le16(bytes, body + 14)))
            } else if id == "data" {
                data = bytes[body..<end]
            }
            offset = body + size + (size & 1)
        }
        guard let format else { throw fail("no fmt chunk") }
        guard let data else { throw fail("no data chunk") }
        guard format.tag == 1 else { throw fail("format \(format.tag) is not PCM; save it as 16- or 24-bit PCM") }
        guard format.bits == 16 || format.bits == 24 else { throw fail("\(format.bits)-bit samples; use 16- or 24-bit PCM") }
        guard (1...8).contains(format.channels) else { throw fail("\(format.channels) channels") }
        guard (8000...192_000).contains(format.rate) else { throw fail("a rate of \(format.rate) Hz; use 8 000 to 192 000") }
        let width = format.bits / 8
        let frameSize = width * format.channels
        let frames = data.count / frameSize
        guard frames > 0 else { throw fail("no samples") }
        guard frames <= format.rate else { throw fail("\(frames * 1000 / format.rate) ms long; a clack sample may be at most 1 second") }
        var samples = [Float](repeating: 0, count: frames)
        let base = data.startIndex
        for f in 0..<frames {
            var sum: Float = 0
            for c in 0..<format.channels {
                let at = base + f * frameSize + c * width
                if width == 2 {
                    sum += Float(Int16(bitPattern: UInt16(data[at]) | UInt16(data[at + 1]) << 8)) / 32768
                } else {
                    let raw = Int32(data[at]) | Int32(data[at + 1]) << 8 | Int32(data[at + 2]) << 16
                    sum += Float((raw << 8) >> 8) / 8_388_608
                }
            }
            samples[f] = sum / Float(format.channels)
        }
        return ClackSample(rate: format.rate, samples: samples)
    }

    /// A mono 16-bit WAV file of `samples` at `rate`.
    public static func encode(mono samples: [Int16], rate: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(44 + samples.count * 2)
        func text(_ s: String) { out += Array(s.utf8) }
        func u32(_ v: Int) { for i in 0..<4 { out.append(UInt8((v >> (8 * i)) & 0xFF)) } }
        func u16(_ v: Int) { for i in 0..<2 { out.append(UInt8((v >> (8 * i)) & 0xFF)) } }
        text("RIFF"); u32(36 + samples.count * 2); text("WAVE")
        text("fmt "); u32(16); u16(1); u16(1); u32(rate); u32(rate * 2); u16(2); u16(16)
        text("data"); u32(samples.count * 2)
        for s in samples { u16(Int(UInt16(bitPattern: s))) }
        return out
    }

    /// `sample` as a mono 16-bit WAV file at its own rate.
    public static func encode(_ sample: ClackSample) -> [UInt8] {
        encode(mono: sample.samples.map { Int16((max(-1, min(1, $0)) * 32767).rounded()) }, rate: sample.rate)
    }

    private static func ascii(_ b: [UInt8], _ at: Int) -> String {
        guard at + 4 <= b.count else { return "" }
        return String(decoding: b[at..<at + 4], as: UTF8.self)
    }
    private static func le16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) | UInt16(b[at + 1]) << 8 }
    private static func le32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}

/// A clack sample file that cannot be used, and why.
public struct WAVError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file, as configured.
    public var file: String
    /// What makes it unusable (its format, its length).
    public var problem: String
    /// `file: problem`.
    public var description: String { "\(file): \(problem)" }
}
