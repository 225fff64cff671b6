/// A device that failed, with what the person at the device can do about it.
public struct HardwareError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device, as the person knows it (`/dev/ttyUSB0`, `/dev/spidev0.0`, `gpiochip0 line 17`).
    public var device: String
    /// What went wrong.
    public var problem: String
    /// What to do, when there is something to do (`add the flapd user to the dialout group`).
    public var remedy: String?

    /// An error of `device`, with a `remedy` when there is one.
    public init(device: String, problem: String, remedy: String? = nil) {
        self.device = device
        self.problem = problem
        self.remedy = remedy
    }

    /// `device: problem (remedy)`.
    public var description: String {
        "\(device): \(problem)" + (remedy.map { " (\($0))" } ?? "")
    }
}
