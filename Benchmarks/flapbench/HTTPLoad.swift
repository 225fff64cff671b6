import FlapControl
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The load of `bench --service`: clients on keep-alive connections, each sending its next
/// request when the last is answered, on a thread of its own. Plain sockets: URLSession on Linux
/// spends more per request than flapd does, and would measure itself.
struct HTTPLoad {
    var port: Int
    var clients: Int
    var seconds: Double

    /// Requests answered with 2xx in `seconds`, and the time taken. `request(client, n)` gives the
    /// method, path and JSON body (or nil) of a client's n-th request.
    func run(_ request: @escaping @Sendable (Int, Int) -> (String, String, String?)) async -> (Int, Double) {
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let answered = await withCheckedContinuation { (finished: CheckedContinuation<Int, Never>) in
            // Blocking sockets, so each client has a thread of its own, never one of the pool's.
            let tally = Mutex((answered: 0, running: clients))
            for c in 0..<clients {
                Thread.detachNewThread { [port] in
                    var ok = 0
                    if let connection = KeepAliveConnection(port: port) {
                        var n = 0
                        while ContinuousClock.now < deadline {
                            let (method, path, body) = request(c, n)
                            guard let status = connection.send(method, path, body: body) else { break }
                            if (200..<300).contains(status) { ok += 1 }
                            n += 1
                        }
                    }
                    let total: Int? = tally.withLock {
                        $0.answered += ok
                        $0.running -= 1
                        return $0.running == 0 ? $0.answered : nil
                    }
                    if let total { finished.resume(returning: total) }
                }
            }
        }
        let elapsed = start.duration(to: .now)
        return (answered, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// One HTTP/1.1 keep-alive connection to 127.0.0.1, reading answers by their Content-Length.
final class KeepAliveConnection {
    private let fd: Int32
    private let port: Int
    private var pending: [UInt8] = []

    init?(port: Int) {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if connected != 0 { close(fd); return nil }
    }

    deinit { close(fd) }

    /// The answer's status, or nil when the connection failed.
    func send(_ method: String, _ path: String, body: String?) -> Int? {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer bench\r\n"
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)" } else { text += "\r\n" }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else { return nil }
        return readAnswer()
    }

    private func readAnswer() -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = pending.firstRange(of: separator) {
                let head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if pending.count >= end.upperBound + length {
                    pending.removeFirst(end.upperBound + length)
                    return status
                }
            }
            var buffer = [UInt8](repeating: 0, count: 16384)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { return nil }
            pending += buffer[0..<n]
        }
    }
}
