import FlapDisplay
import FlapCore
import FlapMessaging
import FlapTime

/// The tables of flapd.toml with a handful of plain settings each, read one function per table.
extension ConfigurationParser {
    static func readTopLevel(_ reader: inout TableReader, into configuration: inout FlapdConfiguration) {
        configuration.stateDirectory = reader.string("state_dir")
        configuration.listen = reader.string("listen") ?? configuration.listen
        if let problem = FlapdConfiguration.listenProblem(configuration.listen) { reader.fail("listen", problem) }
        configuration.logLevel = reader.choice("log_level", ["trace", "debug", "info", "notice", "warning", "error", "critical"]) ?? "info"
    }

    static func readAPI(_ api: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { api.finish() }
        configuration.apiPort = api.port("port") ?? configuration.apiPort
        configuration.apiKey = api.secret("key", file: "key_file")
        configuration.viewerKey = api.secret("viewer_key", file: "viewer_key_file")
        for host in api.strings("allowed_hosts") ?? [] {
            if let problem = hostProblem(host) { api.fail("allowed_hosts", problem) } else { configuration.allowedHosts.append(host) }
        }
        configuration.httpsPort = api.port("https_port") ?? configuration.httpsPort
        for name in api.strings("tls_names") ?? [] {
            if let problem = hostProblem(name) { api.fail("tls_names", problem) } else { configuration.tlsNames.append(name) }
        }
        switch (api.string("tls_certificate_file"), api.string("tls_key_file")) {
        case (let certificate?, let key?): configuration.tlsFiles = TLSFiles(certificate: certificate, key: key)
        case (.some, nil): api.fail("tls_certificate_file", "give tls_key_file too: the certificate's private key")
        case (nil, .some): api.fail("tls_key_file", "give tls_certificate_file too: the certificate the key belongs to")
        case (nil, nil): break
        }
    }

    static func readLocalAPI(_ local: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { local.finish() }
        configuration.localAPIPort = local.port("port") ?? configuration.localAPIPort
        configuration.localAPIToken = local.secret("enablement_token", file: "enablement_token_file")
    }

    static func readMessages(_ messages: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { messages.finish() }
        if let rate = messages.int("rate_limit") {
            if rate < 0 { messages.fail("rate_limit", "must be 0 (no limit) or more, not \(rate)") }
            configuration.rules.ratePerHour = rate
        }
        configuration.rules.allow = Set(messages.strings("allow") ?? [])
        configuration.rules.block = Set(messages.strings("block") ?? [])
    }

    static func readTime(_ time: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { time.finish() }
        guard let clock = time.string("clock") else { return }
        if let setting = ClockTrust.Setting(rawValue: clock) { configuration.clock = setting } else {
            time.fail("clock", "\"\(clock)\" is not one of \(ClockTrust.Setting.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    static func readSound(_ sound: inout TableReader, into configuration: inout FlapdConfiguration) {
        defer { sound.finish() }
        configuration.sound.enabled = sound.bool("enabled") ?? true
        configuration.sound.device = sound.string("device") ?? configuration.sound.device
        if let volume = sound.int("volume") {
            if (0...100).contains(volume) { configuration.sound.volume = volume } else { sound.fail("volume", "must be 0 to 100 (%), not \(volume)") }
        }
        configuration.sound.mute = sound.bool("mute") ?? false
        if let hours = sound.string("quiet_hours") {
            if let parsed = QuietHours(hours) { configuration.sound.quietHours = parsed } else {
                sound.fail("quiet_hours", "\"\(hours)\" is not a span of local time such as \"22:00-07:00\"")
            }
        }
        configuration.sound.samplePath = sound.string("sample")
    }
}
