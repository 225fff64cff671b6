import CLinuxDevices
import FlapHardware
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A Linux framebuffer (`/dev/fb0`, `/dev/fb1` for an SPI TFT), or a file laid out as one.
/// The pixel format comes from the device's screen information; where there is none (a file,
/// a driver without the ioctls) from `configured`, and a configured format that disagrees with
/// the device's is an error rather than a garbled screen.
///
/// The memory is mapped, so a frame's changed rectangles are copied in place, row by row, with
/// no system call each; where it cannot be mapped, each row is written with `pwrite`.
public final class LinuxFramebuffer: FramebufferMemory {
    /// The device's path.
    public let name: String
    /// Its pixels' layout.
    public let format: FramebufferFormat
    private let descriptor: Mutex<Device>

    struct Device {
        var fd: Int32
        /// The screen's bytes mapped, or nil.
        var mapped: UnsafeMutableRawPointer?
    }

    /// Opens the framebuffer at `path`, its layout read from the kernel unless `configured`.
    public init(path: String, configured: FramebufferFormat? = nil) throws {
        name = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let remedy =
                switch errno {
                case ENOENT: "is a screen attached and its driver loaded? (ls /dev/fb*)"
                case EACCES: "add the flapd user to the video group (udev/99-vestawidget.rules)"
                default: nil as String?
                }
            throw HardwareError(device: path, problem: "cannot open", errno: .last, remedy: remedy)
        }
        do {
            format = try Self.format(of: fd, path: path, configured: configured)
        } catch {
            Glibc.close(fd)
            throw error
        }
        let mapping = mmap(nil, format.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        descriptor = Mutex(Device(fd: fd, mapped: mapping == MAP_FAILED ? nil : mapping))
    }

    static func format(of fd: Int32, path: String, configured: FramebufferFormat?) throws -> FramebufferFormat {
        var width: UInt32 = 0, height: UInt32 = 0, bits: UInt32 = 0, line: UInt32 = 0
        var offsets: (UInt32, UInt32, UInt32) = (0, 0, 0), lengths: (UInt32, UInt32, UInt32) = (0, 0, 0)
        let asked = withUnsafeMutablePointer(to: &offsets) { o in
            withUnsafeMutablePointer(to: &lengths) { l in
                o.withMemoryRebound(to: UInt32.self, capacity: 3) { o in
                    l.withMemoryRebound(to: UInt32.self, capacity: 3) { l in vw_fb_screen_info(fd, &width, &height, &bits, &line, o, l) }
                }
            }
        }
        guard asked == 0 else {
            guard let configured else {
                throw HardwareError(
                    device: path, problem: "not a framebuffer, and no format configured", errno: .last,
                    remedy: "set width, height and format (rgb565, rgb888, xrgb8888) for it")
            }
            var status = stat()
            if fstat(fd, &status) == 0, Int(status.st_size) < configured.size {
                throw HardwareError(
                    device: path,
                    problem: "\(status.st_size) bytes cannot hold a \(configured.width)×\(configured.height) screen of \(configured.size) bytes")
            }
            return configured
        }
        let device: FramebufferFormat
        do {
            device = try FramebufferFormat(
                width: Int(width), height: Int(height), bitsPerPixel: Int(bits), lineLength: Int(line),
                red: .init(offset: Int(offsets.0), length: Int(lengths.0)), green: .init(offset: Int(offsets.1), length: Int(lengths.1)),
                blue: .init(offset: Int(offsets.2), length: Int(lengths.2)))
        } catch {
            throw HardwareError(device: path, problem: "its pixel format is not one flapd draws: \(error)")
        }
        if let configured, configured.width != device.width || configured.height != device.height || configured.bitsPerPixel != device.bitsPerPixel {
            throw HardwareError(
                device: path,
                problem: "configured as \(configured.width)×\(configured.height) at \(configured.bitsPerPixel) bits, "
                    + "but the screen is \(device.width)×\(device.height) at \(device.bitsPerPixel) bits",
                remedy: "leave width, height and format out: the screen says them itself")
        }
        return device
    }

    /// Writes `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        try copy([0..<bytes.count], of: bytes, at: offset)
    }

    /// Writes the byte ranges `spans` of `screen`, each at its own offset.
    public func copy(_ spans: [Range<Int>], of screen: [UInt8]) throws {
        try copy(spans, of: screen, at: 0)
    }

    /// Copies the `spans` of `source` to the memory, `source`'s byte 0 going to byte `base`.
    private func copy(_ spans: [Range<Int>], of source: [UInt8], at base: Int) throws {
        guard let last = spans.map(\.upperBound).max(), base >= 0, base + last <= format.size else {
            if spans.isEmpty { return }
            throw HardwareError(device: name, problem: "a write past the end of the \(format.size)-byte screen")
        }
        try descriptor.withLock { device in
            guard device.fd >= 0 else { throw HardwareError(device: name, problem: "closed") }
            try source.withUnsafeBytes { bytes in
                for span in spans where !span.isEmpty {
                    if let mapped = device.mapped {
                        guard let source = bytes.baseAddress else { return }
                        (mapped + base + span.lowerBound).copyMemory(from: source + span.lowerBound, byteCount: span.count)
                    } else {
                        try write(UnsafeRawBufferPointer(rebasing: bytes[span]), at: base + span.lowerBound, fd: device.fd)
                    }
                }
            }
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, fd: Int32) throws {
        guard let start = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, start + done, bytes.count - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw HardwareError(device: name, problem: "write failed", errno: .last) }
            done += n
        }
    }

    /// Closes the device.
    public func close() {
        descriptor.withLock { device in
            if let mapped = device.mapped { munmap(mapped, format.size) }
            if device.fd >= 0 { Glibc.close(device.fd) }
            device = Device(fd: -1, mapped: nil)
        }
    }

    deinit { close() }
}
