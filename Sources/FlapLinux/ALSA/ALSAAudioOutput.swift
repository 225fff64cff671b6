import CALSA
import FlapHardware
import FoundationEssentials

/// Sound through ALSA (libasound): a PCM device such as `default`, `hw:1,0`, or any PCM of an
/// ALSA configuration given as text (the tests use the `null` and `file` plugins that way).
///
/// Opened non-blocking: a write never blocks a thread; when the device's buffer is full the
/// write waits a period and tries again. Underruns are recovered (`snd_pcm_recover`).
public actor ALSAAudioOutput: AudioOutput {
    /// The ALSA PCM's name (`default`, `hw:1,0`).
    public nonisolated let name: String
    /// Frames a second.
    public nonisolated let sampleRate: Int
    /// Samples a frame.
    public nonisolated let channels: Int
    /// Frames per period, as the device granted them.
    public nonisolated let periodFrames: Int
    private var pcm: OpaquePointer?
    private var configuration: OpaquePointer?
    /// Underruns recovered so far.
    public private(set) var underruns = 0

    /// Opens `device` for 16-bit playback at `rate` (mono where the device takes it, else
    /// stereo with the same signal on both). `configuration` is ALSA configuration text
    /// defining `device`, instead of the system's.
    public init(device: String, configuration: String? = nil, rate: Int = 48_000, periodFrames: Int = 480, bufferFrames: Int = 1920) throws {
        vw_alsa_silence_errors()
        name = device
        var pcm: OpaquePointer?
        var top: OpaquePointer?
        let mode = Int32(SND_PCM_NONBLOCK)
        if let configuration {
            try Self.check(snd_config_top(&top), device, "cannot make an ALSA configuration")
            var input: OpaquePointer?
            try configuration.withCString { text in
                try Self.check(snd_input_buffer_open(&input, text, strlen(text)), device, "cannot read the ALSA configuration")
            }
            let loaded = snd_config_load(top, input)
            snd_input_close(input)
            if loaded < 0 { snd_config_delete(top) }
            try Self.check(loaded, device, "the ALSA configuration does not parse")
            let opened = snd_pcm_open_lconf(&pcm, device, SND_PCM_STREAM_PLAYBACK, mode, top)
            if opened < 0 { snd_config_delete(top) }
            try Self.check(opened, device, "cannot open the sound device")
        } else {
            try Self.check(
                snd_pcm_open(&pcm, device, SND_PCM_STREAM_PLAYBACK, mode), device, "cannot open the sound device",
                remedy: "check that it exists (aplay -L) and that flapd's user is in the audio group")
        }
        var params: OpaquePointer?
        snd_pcm_hw_params_malloc(&params)
        defer { snd_pcm_hw_params_free(params) }
        var granted = (rate: UInt32(rate), channels: UInt32(1), period: snd_pcm_uframes_t(periodFrames), buffer: snd_pcm_uframes_t(bufferFrames))
        do {
            try Self.check(snd_pcm_hw_params_any(pcm, params), device, "the device has no playback configuration")
            try Self.check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED), device, "interleaved access refused")
            try Self.check(
                snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE), device, "16-bit samples refused",
                remedy: "use the plug layer, for example device \"plughw:1,0\" or \"default\"")
            if snd_pcm_hw_params_set_channels(pcm, params, 1) < 0 {
                granted.channels = 2
                try Self.check(snd_pcm_hw_params_set_channels(pcm, params, 2), device, "neither mono nor stereo accepted")
            }
            try Self.check(snd_pcm_hw_params_set_rate_near(pcm, params, &granted.rate, nil), device, "\(rate) Hz refused")
            _ = snd_pcm_hw_params_set_period_size_near(pcm, params, &granted.period, nil)
            _ = snd_pcm_hw_params_set_buffer_size_near(pcm, params, &granted.buffer)
            try Self.check(snd_pcm_hw_params(pcm, params), device, "the device refused the settings")
            try Self.check(snd_pcm_prepare(pcm), device, "cannot prepare the device")
        } catch {
            snd_pcm_close(pcm)
            if let top { snd_config_delete(top) }
            throw error
        }
        self.pcm = pcm
        self.configuration = top
        sampleRate = Int(granted.rate)
        channels = Int(granted.channels)
        self.periodFrames = Int(granted.period)
    }

    /// One snd_pcm_writei of `frames` frames from `samples[fromSample...]`: the frames written, or
    /// a negative error. Outside the actor's isolation, so the pointer is only lent, never sent.
    private static func writeInterleaved(_ pcm: OpaquePointer, _ samples: [Int16], fromSample start: Int, frames: Int) -> Int {
        samples.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { snd_pcm_writei(pcm, $0 + start, snd_pcm_uframes_t(frames)) } ?? 0
        }
    }

    /// Writes mono frames (on both channels of a stereo device), waiting while the device's
    /// buffer is full; an underrun is recovered from and counted.
    public func write(_ frames: [Int16]) async throws {
        guard let pcm else { throw HardwareError(device: name, problem: "the sound device is closed") }
        let interleaved = channels == 1 ? frames : frames.flatMap { [$0, $0] }
        var offset = 0
        let total = frames.count
        while offset < total {
            let written = Self.writeInterleaved(pcm, interleaved, fromSample: offset * channels, frames: total - offset)
            if written >= 0 {
                offset += written
            } else if written == -Int(EAGAIN) {
                // The buffer is full: wait for a period to be played.
                try await Task.sleep(for: .microseconds(periodFrames * 1_000_000 / sampleRate))
            } else {
                if written == -Int(EPIPE) { underruns += 1 }
                try Self.check(Int32(snd_pcm_recover(pcm, Int32(written), 1)), name, "lost the sound device")
            }
        }
    }

    /// How long until a frame written now is heard.
    public func delay() async throws -> Duration {
        guard let pcm else { return .zero }
        var frames: snd_pcm_sframes_t = 0
        let result = snd_pcm_delay(pcm, &frames)
        if result < 0 {
            // An underrun or a suspended device: recover, and the queue is empty again.
            try Self.check(snd_pcm_recover(pcm, result, 1), name, "lost the sound device")
            return .zero
        }
        return .microseconds(Int64(max(0, frames)) * 1_000_000 / Int64(sampleRate))
    }

    /// Closes the device.
    public func close() async {
        if let pcm { snd_pcm_close(pcm) }
        if let configuration { snd_config_delete(configuration) }
        pcm = nil
        configuration = nil
    }

    static func check(_ result: Int32, _ device: String, _ problem: String, remedy: String? = nil) throws {
        guard result < 0 else { return }
        throw HardwareError(device: device, problem: "\(problem): \(String(cString: snd_strerror(result)))", remedy: remedy)
    }
}
