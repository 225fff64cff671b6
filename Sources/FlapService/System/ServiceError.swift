import FlapCore
import FlapStorage
import FoundationEssentials
import Glibc

/// A problem that stops flapd from starting (or a part of it from working), said so the person
/// can fix it, and of a kind (``code``) that tells systemd, through the exit status, whether
/// starting again can help. Each case carries what it concerns; ``description`` is its words.
public enum ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    // MARK: Only changing the configuration helps

    /// No configuration file at `path`, the default one.
    case noConfiguration(path: String)
    /// The configuration file at `path` cannot be read.
    case unreadableConfiguration(path: String)
    /// The configuration file is over the size any configuration has.
    case configurationTooLarge(path: String, largestKiB: Int)
    /// The configuration file is read, and wrong.
    case invalidConfiguration(ConfigurationError)
    /// The settings changed from the page (settings.toml) cannot be read.
    case unreadableSettings(problem: String)
    /// `[mqtt]` or `--mqtt` cannot be used.
    case mqttSettings(problem: String)
    /// A kiosk panel with no room to show.
    case kioskWithoutRoom(panel: String)
    /// A room with no broker to share it over.
    case roomWithoutMQTT(room: String)
    /// `[sound] sample` cannot be read.
    case unreadableSample(path: String)
    /// `[sound] sample` is read, and cannot be played.
    case unusableSample(problem: String)
    /// A sound control used while sound is off.
    case soundOff
    /// A calibration of a panel there is not.
    case noPanelToCalibrate(panel: String)
    /// A Vestaboard's (or a Note's) `url` that is not an address; `owner` names the panel or mirror.
    case boardAddressInvalid(owner: String)
    /// A Vestaboard's key or token file that is not given; `what` names the credential.
    case credentialNotConfigured(owner: String, what: String)
    /// A Chainlink controller with fewer modules than the board's size needs.
    case tooFewModules(panel: String, modules: Int, size: BoardSize)
    /// A Chainlink controller whose modules do not make `rows` equal rows.
    case modulesNotInRows(panel: String, modules: Int, rows: Int)
    /// A Chainlink controller whose modules do not make rows of `columns`.
    case modulesNotInColumns(panel: String, modules: Int, columns: Int)
    /// An LED display too small for one 5×7 module.
    case tooFewPixels(panel: String, width: Int, height: Int)

    // MARK: It may come good by itself

    /// A listener's port is taken; `key` is the setting that chooses another.
    case portTaken(listener: String, address: String, key: String)
    /// A listener's address is not one of this machine's.
    case addressNotHere(listener: String, address: String)
    /// A listener cannot listen, for another reason.
    case cannotListen(listener: String, address: String, reason: String)
    /// The HTTPS certificate cannot be made or read.
    case https(reason: String)
    /// A panel's hardware (or its display) is not there or does not answer.
    case panelUnavailable(panel: String, reason: String)
    /// A heart-rate sensor (numbered from 1, as configured) cannot be opened.
    case sensorUnavailable(number: Int, driver: String, reason: String)
    /// A kiosk's buzzer cannot be opened.
    case buzzerUnavailable(room: String, reason: String)
    /// The rooms cannot start.
    case roomsUnavailable(reason: String)

    // MARK: The state directory or a file flapd reads

    /// The state directory cannot be created.
    case stateDirectoryUncreatable(path: String, reason: String)
    /// A file in the state directory cannot be written.
    case stateFileUnwritable(path: String)
    /// A key file in the state directory is over a key's size.
    case stateKeyTooLarge(path: String, largest: Int)
    /// A secret's file (`purpose`: "API key", …) cannot be read.
    case unreadableSecret(purpose: String, path: String)
    /// A secret's file is over a key's size.
    case secretTooLarge(purpose: String, path: String, largest: Int)
    /// A secret's file is empty.
    case emptySecret(purpose: String, path: String)
    /// A database (`purpose`: "inbox", …) cannot be opened.
    case databaseUnopenable(purpose: String, path: String?, reason: String)

    /// A panel's own failure while it was being made, `panel` named (an error of the state
    /// directory's keeps its kind: exit 73).
    indirect case inPanel(panel: String, ServiceError)

    /// Whether starting again can help.
    public enum Code: Sendable, Equatable {
        /// A setting is wrong or missing; only changing the configuration helps. Exit status 78
        /// (`EX_CONFIG`), which the unit does not restart (`RestartPreventExitStatus=78`).
        case configuration
        /// A port, an address, a device or a peer flapd needs is taken or not there yet (a USB
        /// sensor not plugged in, an address DHCP has not given): it may come good by itself.
        /// Exit status 69 (`EX_UNAVAILABLE`): restarted.
        case unavailable
        /// The state directory or a file in it cannot be created, read or written. Exit status
        /// 73 (`EX_CANTCREAT`): restarted (a disk mounted late).
        case files
    }

    /// Its kind.
    public var code: Code {
        switch self {
        case .noConfiguration, .unreadableConfiguration, .configurationTooLarge, .invalidConfiguration, .unreadableSettings, .mqttSettings,
            .kioskWithoutRoom,
            .roomWithoutMQTT, .unreadableSample, .unusableSample, .soundOff, .noPanelToCalibrate, .boardAddressInvalid,
            .credentialNotConfigured, .tooFewModules, .modulesNotInRows, .modulesNotInColumns, .tooFewPixels:
            .configuration
        case .portTaken, .addressNotHere, .cannotListen, .https, .panelUnavailable, .sensorUnavailable, .buzzerUnavailable,
            .roomsUnavailable:
            .unavailable
        case .stateDirectoryUncreatable, .stateFileUnwritable, .stateKeyTooLarge, .unreadableSecret, .secretTooLarge, .emptySecret,
            .databaseUnopenable:
            .files
        case .inPanel(_, let error): error.code
        }
    }

    /// The sysexits.h status flapd ends with.
    public var exitStatus: Int32 {
        switch code {
        case .configuration: 78
        case .unavailable: 69
        case .files: 73
        }
    }
}
