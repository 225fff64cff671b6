import FlapHardware
import FlapLinux
import Testing

/// Both libgpiod backends, each through the real library (scripts/test provides libgpiod 2 on
/// Debian 12 beside the system's libgpiod 1), at the edge this kernel allows: it has no GPIO
/// chip, so each is asked for chips that do not exist, and for files that are not chips.
@Suite(.timeLimit(.minutes(3))) struct GPIOLinesTests {
    static let libraries = [GPIODLibrary.v1, .v2].filter(\.isPresent)

    @Test func theNewerLibraryIsChosenWhenTheSystemHasBoth() throws {
        let expected: GPIODLibrary? = GPIODLibrary.v2.isPresent ? .v2 : GPIODLibrary.v1.isPresent ? .v1 : nil
        #expect(GPIODLibrary.present == expected)
        let present = try #require(GPIODLibrary.present, "scripts/test provides a libgpiod")
        // The library's own version, of the API the backend was written for.
        #expect(present.version.hasPrefix("\(present.rawValue)."))
        #expect(present.description == "libgpiod \(present.version) (\(present.soname))")
    }

    @Test(arguments: libraries) func aMissingChipIsNamedWithWhatToCheck(library: GPIODLibrary) {
        for chip in ["gpiochip0", "0", "/dev/gpiochip0", "pinctrl-rp1"] {
            #expect {
                _ = try LinuxGPIOLines(chip: chip, outputs: [17, 18, 27, 22], inputs: [23], library: library)
            } throws: { error in
                (error as? HardwareError)?.description
                    == "\(chip): cannot open: No such file or directory (check the chip name (gpiodetect lists them); this machine may have no GPIO)"
            }
        }
    }

    @Test(arguments: libraries) func aFileThatIsNotAGPIOChipIsRefused(library: GPIODLibrary) {
        #expect {
            _ = try LinuxGPIOLines(chip: "/dev/null", outputs: [17], inputs: [], library: library)
        } throws: { error in
            let description = (error as? HardwareError)?.description ?? ""
            return description.hasPrefix("/dev/null: cannot open: ") && !description.contains("No such file")
        }
    }

    @Test func bothLibrariesAreTested() {
        // CI runs on Debian 12 with both; a Debian 13 system has only libgpiod 2.
        #expect(Self.libraries.contains(.v2))
    }
}
