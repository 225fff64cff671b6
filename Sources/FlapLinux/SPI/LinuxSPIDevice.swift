import CLinuxDevices
import FlapHardware
import Synchronization

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// A SPI device through Linux spidev (`/dev/spidev0.0`): mode 0, 8-bit words, a fixed speed.
/// Each transfer is one `SPI_IOC_MESSAGE` with chip select held throughout.
public final class LinuxSPIDevice: SPIDevice {
    /// The device's path.
    public let name: String
    /// The clock it is driven at.
    public let speedHz: Int
    private let descriptor: Mutex<Int32>

    /// Opens `path` at `speedHz` (4 MHz suits a chain of 74HC595/165 over a short ribbon).
    public init(path: String, speedHz: Int = 4_000_000, mode: UInt8 = 0) throws {
        name = path
        self.speedHz = speedHz
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let remedy =
                switch errno {
                case ENOENT: "enable SPI (dtparam=spi=on in /boot/firmware/config.txt) and reboot"
                case EACCES: "add the flapd user to the spi group (udev/99-vestawidget.rules)"
                default: nil as String?
                }
            throw HardwareError(device: path, problem: "cannot open", errno: .last, remedy: remedy)
        }
        guard vw_spi_configure(fd, mode, 8, UInt32(speedHz)) == 0 else {
            let failure = Errno.last
            Glibc.close(fd)
            throw HardwareError(device: path, problem: "not a spidev device, or it refused mode \(mode) at \(speedHz) Hz", errno: failure)
        }
        descriptor = Mutex(fd)
    }

    /// Sends `bytes` and returns what came back in the same transfer.
    public func transfer(_ bytes: [UInt8]) throws -> [UInt8] {
        try descriptor.withLock { fd in
            guard fd >= 0 else { throw HardwareError(device: name, problem: "closed") }
            var received = [UInt8](repeating: 0, count: bytes.count)
            let result = bytes.withUnsafeBufferPointer { tx in
                received.withUnsafeMutableBufferPointer { rx in
                    vw_spi_transfer(fd, tx.baseAddress, rx.baseAddress, UInt32(bytes.count), UInt32(speedHz))
                }
            }
            guard result == 0 else {
                let failure = Errno.last
                // spidev refuses transfers over its buffer (4096 bytes unless raised): a WS2812
                // matrix of more than about 450 LEDs needs more.
                let remedy =
                    failure == .messageTooLong ? "raise spidev's buffer: add spidev.bufsiz=65536 to /boot/firmware/cmdline.txt and reboot" : nil
                throw HardwareError(device: name, problem: "a transfer of \(bytes.count) bytes failed", errno: failure, remedy: remedy)
            }
            return received
        }
    }

    /// Closes the device.
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}
