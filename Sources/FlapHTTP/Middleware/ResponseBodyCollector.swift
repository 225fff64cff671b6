import HTTPTypes
import Hummingbird
import NIOCore

extension ResponseBody {
    /// The whole body, gathered in memory (for answers that are whole already: JSON, files).
    consuming func collected() async throws -> ByteBuffer {
        let collector = Collector()
        try await write(collector)
        return collector.bytes
    }
}

/// A response body written into one buffer.
private final class Collector: ResponseBodyWriter {
    var bytes = ByteBuffer()
    func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        bytes.writeBuffer(&buffer)
    }
    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
