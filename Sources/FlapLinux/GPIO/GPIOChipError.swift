import FlapHardware
import Glibc
import SystemPackage

/// What either libgpiod backend says when a chip cannot be opened.
enum GPIOChipError {
    static func cannotOpen(_ chip: String, errno code: Int32) -> HardwareError {
        let remedy =
            code == ENOENT
            ? "check the chip name (gpiodetect lists them); this machine may have no GPIO"
            : code == EACCES ? "add the flapd user to the gpio group (udev/99-vestawidget.rules)" : nil
        return HardwareError(device: chip, problem: "cannot open", errno: Errno(rawValue: code), remedy: remedy)
    }
}
