import FlapCore
import Testing

@testable import FlapService

/// Each reason flapd stops, in the words a person reads, and the exit status that tells systemd
/// whether starting again can help.
@Suite struct ServiceErrorTests {
    @Test func eachCaseSaysWhatIsWrongAndWhatToDo() {
        let said: [(ServiceError, String)] = [
            (
                .noConfiguration(path: "/etc/flapd/flapd.toml"),
                "no configuration at /etc/flapd/flapd.toml; write one (see flapd.example.toml) or try flapd --simulate"
            ),
            (.unreadableConfiguration(path: "/x.toml"), "cannot read the configuration file /x.toml"),
            (
                .configurationTooLarge(path: "/x.toml", largestKiB: 256),
                "the configuration file /x.toml is larger than 256 KiB, too large for a configuration"
            ),
            (
                .invalidConfiguration(
                    ConfigurationError(file: "f.toml", problems: [.init(key: "api.port", line: 3, problem: "must be a whole number")])),
                "f.toml: line 3, api.port: must be a whole number"
            ),
            (.mqttSettings(problem: "no host"), "MQTT: no host"),
            (.kioskWithoutRoom(panel: "main"), "panel main: policy kiosk shows a Wematch room; join one with --room or [room]"),
            (.roomWithoutMQTT(room: "hall"), "room hall: a room is shared over MQTT; give --mqtt or [mqtt]"),
            (.unreadableSample(path: "/a.wav"), "cannot read the clack sample /a.wav ([sound] sample)"),
            (.unusableSample(problem: "not a WAV file"), "the clack sample cannot be used: not a WAV file ([sound] sample)"),
            (.soundOff, "sound is off ([sound] enabled = false)"),
            (.noPanelToCalibrate(panel: "wall"), "no panel wall to calibrate"),
            (.boardAddressInvalid(owner: "panel wall"), "panel wall: the board's url is not an address"),
            (.credentialNotConfigured(owner: "panel wall", what: "Local API key"), "panel wall: the Local API key file is not configured"),
            (.tooFewModules(panel: "main", modules: 10, size: .flagship), "panel main: the controller has 10 modules, too few for a 6×22 board"),
            (.modulesNotInRows(panel: "main", modules: 10, rows: 3), "panel main: 10 modules do not make 3 equal rows"),
            (.modulesNotInColumns(panel: "main", modules: 10, columns: 3), "panel main: 10 modules do not make rows of 3"),
            (.tooFewPixels(panel: "led", width: 4, height: 4), "panel led: 4×4 pixels cannot show even one 5×7 module"),
            (
                .portTaken(listener: "native API", address: "127.0.0.1:8080", key: "--api-port"),
                "the native API cannot listen on 127.0.0.1:8080: the port is taken (another flapd, or another server); choose another with --api-port"
            ),
            (
                .addressNotHere(listener: "native API", address: "10.9.9.9:8080"),
                "the native API cannot listen on 10.9.9.9:8080: no interface of this machine has that address"
            ),
            (.cannotListen(listener: "native API", address: "a:1", reason: "refused"), "the native API cannot listen on a:1: refused"),
            (.https(reason: "no key"), "HTTPS: no key"),
            (.panelUnavailable(panel: "main", reason: "no such device"), "panel main: no such device"),
            (.sensorUnavailable(number: 2, driver: "ble", reason: "no adapter"), "sensor 2 (ble): no adapter"),
            (.buzzerUnavailable(room: "hall", reason: "busy"), "room hall: the buzzer: busy"),
            (.roomsUnavailable(reason: "broken"), "rooms: broken"),
            (
                .stateDirectoryUncreatable(path: "/s", reason: "read-only"),
                "cannot create the state directory /s: read-only (give another with --state-dir)"
            ),
            (.stateFileUnwritable(path: "/s/k"), "cannot write /s/k: check the state directory's permissions"),
            (
                .stateKeyTooLarge(path: "/s/k", largest: 4096),
                "/s/k is larger than 4096 bytes; a key file holds one line of at most 4096 bytes: move it aside and flapd makes a new key"
            ),
            (.unreadableSecret(purpose: "API key", path: "/k"), "cannot read the API key file /k: check that it exists and that flapd may read it"),
            (
                .secretTooLarge(purpose: "API key", path: "/k", largest: 4096),
                "the API key file /k is larger than 4096 bytes; it should hold the key on one line"
            ),
            (.emptySecret(purpose: "API key", path: "/k"), "the API key file /k is empty"),
            (.databaseUnopenable(purpose: "inbox", path: "/s/inbox.sqlite", reason: "locked"), "cannot open the inbox /s/inbox.sqlite: locked"),
            (.databaseUnopenable(purpose: "inbox", path: nil, reason: "the disk is full"), "cannot open the inbox: the disk is full"),
            (
                .inPanel(panel: "main", .tooFewModules(panel: "main", modules: 10, size: .flagship)),
                "panel main: the controller has 10 modules, too few for a 6×22 board"
            ),
            (
                .inPanel(panel: "wall", .credentialNotConfigured(owner: "the Vestaboard", what: "Local API key")),
                "panel wall: the Vestaboard: the Local API key file is not configured"
            )
        ]
        for (error, words) in said { #expect(error.description == words) }
    }

    @Test func theExitStatusSaysWhetherARestartCanHelp() {
        #expect(ServiceError.invalidConfiguration(ConfigurationError(file: "f", problems: [])).exitStatus == 78)
        #expect(ServiceError.portTaken(listener: "x", address: "y", key: "z").exitStatus == 69)
        #expect(ServiceError.stateFileUnwritable(path: "/s").exitStatus == 73)
        // A panel's own error keeps its kind: the delivery queue's file is the state directory's.
        #expect(ServiceError.inPanel(panel: "wall", .databaseUnopenable(purpose: "outbox", path: nil, reason: "full")).exitStatus == 73)
    }
}
