import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// stdout as a buffered writer (the JSON-lines mode writes hundreds of thousands of lines), and
/// stderr written at once. A writer belongs to the one command that made it.
package final class StandardStream {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes `text` to stderr at once, unbuffered.
    package static func writeError(_ text: String) {
        let stream = StandardStream(descriptor: 2)
        stream.write(text)
        stream.flush()
    }

    /// Writes `text` to stdout at once.
    package static func writeOutput(_ text: String) {
        let stream = StandardStream(descriptor: 1)
        stream.write(text)
        stream.flush()
    }

    /// A buffered writer on stdout; call ``flush()`` when done.
    package static func bufferedOutput() -> StandardStream { StandardStream(descriptor: 1) }

    /// Whether stdout is a terminal (animations and colour only then).
    static var outputIsTerminal: Bool { isatty(1) == 1 }

    /// Whether stdout is a terminal that shows colour: not `TERM=dumb`, and no `NO_COLOR` (no-color.org).
    static var outputHasColour: Bool {
        guard outputIsTerminal else { return false }
        let environment = ProcessInfo.processInfo.environment
        return environment["NO_COLOR"].map(\.isEmpty) ?? true && environment["TERM"] != "dumb"
    }

    /// Writes `text` to stdout at once as it is: a board drawn with colours by flapctl.
    package static func writeTerminalCodes(_ text: String) {
        let stream = StandardStream(descriptor: 1)
        stream.writeTerminalCodes(text)
        stream.flush()
    }

    /// Writes `bytes` to stdout at once (binary output such as a picture or device frames).
    package static func writeOutput(bytes: [UInt8]) {
        let stream = StandardStream(descriptor: 1)
        stream.write(bytes: bytes)
        stream.flush()
    }

    /// Writes `text` with its control characters shown as codes (``TerminalText``).
    package func write(_ text: String) {
        buffer.append(contentsOf: TerminalText.escaped(text).utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `text` as it is: flapctl's own terminal codes (colours, the cursor), never text
    /// that came from elsewhere unescaped.
    package func writeTerminalCodes(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    package func write(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    package func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break  // stdout closed (a pipe whose reader left): nothing more to say
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
