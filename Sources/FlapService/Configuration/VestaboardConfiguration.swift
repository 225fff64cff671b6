import FlapVestaboard

extension ConfigurationParser {
    /// The keys of a `driver = "vestaboard"` panel.
    static func parseVestaboard(_ reader: inout TableReader) -> VestaboardSettings {
        var settings = parseBoardAccess(&reader)
        settings.strategy = reader.choice("strategy") ?? settings.strategy
        settings.onConflict = reader.choice("on_conflict") ?? settings.onConflict
        return settings
    }

    /// One `[[mirror]]`: a board read as a message source.
    static func parseMirror(_ reader: inout TableReader, index: Int) -> MirrorSettings {
        defer { reader.finish() }
        var mirror = MirrorSettings(board: parseBoardAccess(&reader))
        mirror.id = reader.string("id") ?? "mirror\(index + 1)"
        mirror.sender = reader.string("sender") ?? "vestaboard"
        if let seconds = reader.int("interval_seconds") {
            let least = mirror.board.api == .local ? 1 : 15
            if seconds < least {
                reader.fail("interval_seconds", mirror.board.api == .local ? "must be at least 1, not \(seconds)"
                    : "must be at least 15 for the cloud (its own limit), not \(seconds)")
            }
            mirror.intervalSeconds = max(least, seconds)
        } else {
            mirror.intervalSeconds = mirror.board.api == .local ? 10 : 30
        }
        return mirror
    }

    /// Which API, where, and the file holding its credential.
    static func parseBoardAccess(_ reader: inout TableReader) -> VestaboardSettings {
        var settings = VestaboardSettings()
        settings.api = reader.choice("api") ?? settings.api
        settings.url = reader.string("url")
        let key = reader.string("key_file"), token = reader.string("token_file")
        switch settings.api {
        case .cloud:
            if key != nil { reader.fail("key_file", "the Cloud API takes a token: token_file = \"/etc/flapd/vestaboard-token\"") }
            settings.credentialFile = token
        case .local, .rw:
            if token != nil { reader.fail("token_file", "the \(settings.api.title) API takes a key: key_file = \"/etc/flapd/vestaboard-key\"") }
            settings.credentialFile = key
        }
        if settings.credentialFile == nil {
            reader.fail(settings.api == .cloud ? "token_file" : "key_file", settings.api == .cloud
                ? "a Cloud API token is needed (the Vestaboard web app, Developer section), in a file: token_file = \"/etc/flapd/vestaboard-token\""
                : settings.api == .local
                ? "the board's Local API key is needed, in a file: key_file = \"/etc/flapd/vestaboard-key\" (docs/vestaboard.md)"
                : "the Read/Write key is needed (the Vestaboard app, Settings), in a file: key_file = \"/etc/flapd/vestaboard-key\"")
        }
        if settings.api == .local, settings.url == nil { reader.fail("url", "the board's Local API address is needed: url = \"http://vestaboard.local:7000\"") }
        if let url = settings.url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            reader.fail("url", "\"\(url)\" is not an http:// or https:// address")
        }
        return settings
    }
}
