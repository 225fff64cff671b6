import FlapHardware
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// A serial device through termios (`/dev/splitflap0`, `/dev/ttyUSB0`, a pseudo-terminal), raw
/// mode at the given line settings. Opened non-blocking; a read or write that must wait for
/// the device waits on the port's own thread (``DescriptorWaiter``), never in the shared pool.
public actor LinuxSerialPort: SerialPort {
    /// The port's path.
    public nonisolated let name: String
    /// -1 once closed (the waiter closes the descriptor itself, after its last poll).
    private var descriptor: Int32
    private let waiter: DescriptorWaiter

    /// Opens `path` with `settings`; errors name the device and say what to do.
    public init(path: String, settings: SerialSettings) throws {
        name = path
        let fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let failure = Errno.last
            let remedy =
                failure == .permissionDenied
                ? "add the flapd user to the dialout group (udev/99-vestawidget.rules)"
                : failure == .noSuchFileOrDirectory ? "is the controller plugged in?" : nil
            throw HardwareError(device: path, problem: "cannot open", errno: failure, remedy: remedy)
        }
        do {
            try Self.configure(fd, path: path, settings: settings)
            waiter = try DescriptorWaiter(descriptor: fd, name: path)
        } catch {
            Glibc.close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit { if descriptor >= 0 { waiter.stop() } }

    /// A new pseudo-terminal: the port on its controlling side, and the path of the terminal
    /// side, which a driver opens as it would a USB serial adapter. Simulated devices sit here.
    public static func pseudoTerminal(settings: SerialSettings = .chainlink) throws -> (device: LinuxSerialPort, path: String) {
        // /dev/ptmx opened close-on-exec at once (openpty cannot): a process spawned meanwhile
        // by another thread must not inherit the device side.
        let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard controller >= 0 else {
            throw HardwareError(device: "/dev/ptmx", problem: "cannot open a pseudo-terminal", errno: .last)
        }
        var number: UInt32 = 0
        var unlock: Int32 = 0
        // TIOCSPTLCK (_IOW('T', 0x31, int)) and TIOCGPTN (_IOR('T', 0x30, unsigned int)) do not
        // import (their macros build a structure), nor does unlockpt.
        let setPTYLock: UInt = 0x4004_5431, getPTYNumber: UInt = 0x8004_5430
        guard ioctl(controller, setPTYLock, &unlock) == 0, ioctl(controller, getPTYNumber, &number) == 0 else {
            let failure = Errno.last
            Glibc.close(controller)
            throw HardwareError(device: "/dev/ptmx", problem: "cannot set up a pseudo-terminal", errno: failure)
        }
        let path = "/dev/pts/\(number)"
        let name = "\(path) (device side)"
        do {
            try configure(controller, path: path, settings: settings)
            return (LinuxSerialPort(descriptor: controller, name: name, waiter: try DescriptorWaiter(descriptor: controller, name: name)), path)
        } catch {
            Glibc.close(controller)
            throw error
        }
    }

    private init(descriptor: Int32, name: String, waiter: DescriptorWaiter) {
        self.descriptor = descriptor
        self.name = name
        self.waiter = waiter
    }

    static func configure(_ fd: Int32, path: String, settings: SerialSettings) throws {
        var options = termios()
        guard tcgetattr(fd, &options) == 0 else {
            throw HardwareError(device: path, problem: "not a serial device", errno: .last)
        }
        cfmakeraw(&options)
        guard let speed = speedConstant(settings.baudRate) else {
            throw HardwareError(device: path, problem: "\(settings.baudRate) baud is not a standard rate")
        }
        cfsetispeed(&options, speed)
        cfsetospeed(&options, speed)
        options.c_cflag &= ~tcflag_t(CSIZE)
        switch settings.dataBits {
        case 5: options.c_cflag |= tcflag_t(CS5)
        case 6: options.c_cflag |= tcflag_t(CS6)
        case 7: options.c_cflag |= tcflag_t(CS7)
        default: options.c_cflag |= tcflag_t(CS8)
        }
        options.c_cflag &= ~tcflag_t(PARENB | PARODD)
        if settings.parity != .none { options.c_cflag |= tcflag_t(PARENB) }
        if settings.parity == .odd { options.c_cflag |= tcflag_t(PARODD) }
        if settings.stopBits == 2 { options.c_cflag |= tcflag_t(CSTOPB) } else { options.c_cflag &= ~tcflag_t(CSTOPB) }
        options.c_cflag |= tcflag_t(CLOCAL | CREAD)
        options.c_cflag &= ~tcflag_t(CRTSCTS)
        guard tcsetattr(fd, TCSANOW, &options) == 0 else {
            throw HardwareError(device: path, problem: "cannot set \(settings.baudRate) baud", errno: .last)
        }
        tcflush(fd, TCIOFLUSH)
    }

    static func speedConstant(_ baud: Int) -> speed_t? {
        // speed_t(…) around each: glibc 2.41 spells the constants as octal Int32, 2.43 as UInt32.
        let table: [Int: speed_t] = [
            9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
            115_200: speed_t(B115200), 230_400: speed_t(B230400), 460_800: speed_t(B460800), 921_600: speed_t(B921600)
        ]
        return table[baud]
    }

    /// Writes all of `bytes`, waiting while the port's buffer is full.
    public func write(_ bytes: [UInt8]) async throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EAGAIN || errno == EINTR {
                try await waiter.wait(for: Int16(POLLOUT), until: .now + .milliseconds(100))
            } else {
                throw HardwareError(device: name, problem: "write failed", errno: .last, remedy: "was the controller unplugged?")
            }
        }
    }

    /// Up to `maximum` bytes, waiting up to `timeout` for the first; empty when none came.
    public func read(maximum: Int, timeout: Duration) async throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let deadline = ContinuousClock.now + timeout
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, maximum) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 || (errno != EAGAIN && errno != EINTR) {
                throw HardwareError(
                    device: name, problem: count == 0 ? "the device went away" : "read failed", errno: count == 0 ? nil : .last,
                    remedy: "was the controller unplugged?")
            }
            guard ContinuousClock.now < deadline else { return [] }
            try await waiter.wait(for: Int16(POLLIN), until: deadline)
        }
    }

    /// Waits until what was written has left the port, then holds the line low for `duration`
    /// (a pseudo-terminal has no line: the kernel takes the BREAK and drops it).
    public func sendBreak(for duration: Duration) async throws {
        var queued: Int32 = 0
        // Polled rather than tcdrain(3), which would block a thread of the shared pool.
        while ioctl(descriptor, UInt(TIOCOUTQ), &queued) == 0, queued > 0 { try await Task.sleep(for: .milliseconds(1)) }
        guard ioctl(descriptor, UInt(TIOCSBRK)) == 0 else {
            throw HardwareError(
                device: name, problem: "cannot send a BREAK", errno: .last, remedy: "use a USB RS-485 adapter that can (FTDI or CH340)")
        }
        defer { _ = ioctl(descriptor, UInt(TIOCCBRK)) }
        try await Task.sleep(for: duration)
    }

    /// Closes the port.
    public func close() async {
        if descriptor >= 0 { waiter.stop() }
        descriptor = -1
    }
}
