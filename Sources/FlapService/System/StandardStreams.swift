import Glibc

/// flapd's standard output and error, written straight to their descriptors (what Foundation's
/// `FileHandle` did, without linking Foundation and ICU for it).
enum StandardStreams {
    static func output(_ text: String) { write(text, to: STDOUT_FILENO) }
    static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    /// Writes all of `text`, across short writes and interruptions; a closed stream drops it.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { Glibc.write(descriptor, $0 + offset, buffer.count - offset) } ?? 0
            }
            if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { return }
        }
    }
}
