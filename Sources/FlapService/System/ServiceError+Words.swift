extension ServiceError {
    /// What is wrong and what to do, in a person's words.
    public var description: String {
        switch self {
        case .noConfiguration(let path): "no configuration at \(path); write one (see flapd.example.toml) or try flapd --simulate"
        case .unreadableConfiguration(let path): "cannot read the configuration file \(path)"
        case .configurationTooLarge(let path, let largest):
            "the configuration file \(path) is larger than \(largest) KiB, too large for a configuration"
        case .invalidConfiguration(let error): error.description
        case .unreadableSettings(let problem): "the settings changed from the page: \(problem)"
        case .mqttSettings(let problem): "MQTT: \(problem)"
        case .kioskWithoutRoom(let panel): "panel \(panel): policy kiosk shows a Wematch room; join one with --room or [room]"
        case .roomWithoutMQTT(let room): "room \(room): a room is shared over MQTT; give --mqtt or [mqtt]"
        case .unreadableSample(let path): "cannot read the clack sample \(path) ([sound] sample)"
        case .unusableSample(let problem): "the clack sample cannot be used: \(problem) ([sound] sample)"
        case .soundOff: "sound is off ([sound] enabled = false)"
        case .noPanelToCalibrate(let panel): "no panel \(panel) to calibrate"
        case .boardAddressInvalid(let owner): "\(owner): the board's url is not an address"
        case .credentialNotConfigured(let owner, let what): "\(owner): the \(what) file is not configured"
        case .tooFewModules(let panel, let modules, let size): "panel \(panel): the controller has \(modules) modules, too few for a \(size) board"
        case .modulesNotInRows(let panel, let modules, let rows): "panel \(panel): \(modules) modules do not make \(rows) equal rows"
        case .modulesNotInColumns(let panel, let modules, let columns): "panel \(panel): \(modules) modules do not make rows of \(columns)"
        case .tooFewPixels(let panel, let width, let height): "panel \(panel): \(width)×\(height) pixels cannot show even one 5×7 module"
        case .portTaken(let listener, let address, let key):
            "the \(listener) cannot listen on \(address): the port is taken (another flapd, or another server); choose another with \(key)"
        case .addressNotHere(let listener, let address): "the \(listener) cannot listen on \(address): no interface of this machine has that address"
        case .cannotListen(let listener, let address, let reason): "the \(listener) cannot listen on \(address): \(reason)"
        case .https(let reason): "HTTPS: \(reason)"
        case .panelUnavailable(let panel, let reason): "panel \(panel): \(reason)"
        case .sensorUnavailable(let number, let driver, let reason): "sensor \(number) (\(driver)): \(reason)"
        case .buzzerUnavailable(let room, let reason): "room \(room): the buzzer: \(reason)"
        case .roomsUnavailable(let reason): "rooms: \(reason)"
        case .stateDirectoryUncreatable(let path, let reason): "cannot create the state directory \(path): \(reason) (give another with --state-dir)"
        case .stateFileUnwritable(let path): "cannot write \(path): check the state directory's permissions"
        case .stateKeyTooLarge(let path, let largest):
            "\(path) is larger than \(largest) bytes; a key file holds one line of at most \(largest) bytes: move it aside and flapd makes a new key"
        case .unreadableSecret(let purpose, let path): "cannot read the \(purpose) file \(path): check that it exists and that flapd may read it"
        case .secretTooLarge(let purpose, let path, let largest):
            "the \(purpose) file \(path) is larger than \(largest) bytes; it should hold the key on one line"
        case .emptySecret(let purpose, let path): "the \(purpose) file \(path) is empty"
        case .databaseUnopenable(let purpose, let path?, let reason): "cannot open the \(purpose) \(path): \(reason)"
        case .databaseUnopenable(let purpose, nil, let reason): "cannot open the \(purpose): \(reason)"
        case .inPanel(let panel, let error):
            // Most of a panel's own errors name it already.
            error.description.hasPrefix("panel \(panel):") ? error.description : "panel \(panel): \(error.description)"
        }
    }
}
