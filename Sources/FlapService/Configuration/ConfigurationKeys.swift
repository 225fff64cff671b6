/// flapd.toml's tables and the keys each may hold, in the order a problem lists them: the one
/// place that knows them. A ``TableReader`` takes its table's keys from here, reports any other
/// key it finds in the file, and (in debug builds, so in the tests) stops when the code reads a
/// key that is not listed, so the list and the reading cannot drift apart.
enum ConfigurationKeys {
    /// A table's keys: those it always may hold, and those only some of its kinds may (a
    /// panel's LED and Vestaboard keys), which the parser adds when they apply.
    struct Table {
        var always: [String]
        var conditional: [String] = []

        func allows(_ key: String) -> Bool { always.contains(key) || conditional.contains(key) }
    }

    /// The file's top level.
    static let file = Table(always: ["state_dir", "listen", "log_level", "api", "local_api", "messages", "sound", "mqtt", "panel",
                                     "sensor", "room", "mirror", "time", "schedule", "location", "source", "trigger"])

    static let panelLED = ["width", "height", "orientation", "reverse_blocks", "wiring", "current_limit_ma", "format", "chain", "parallel",
                           "hardware_mapping", "pwm_bits", "gpio_slowdown", "brightness", "brightness_schedule", "blank_after_seconds", "fps"]
    static let panelVestaboard = ["api", "url", "key_file", "token_file", "strategy", "on_conflict"]

    /// The keys of the table (or of each table of the array) called `name`; nil for a table
    /// whose keys are names the person chooses (`names`: a strap's name for each address).
    static func table(_ name: String) -> Table? {
        switch name {
        case "api": Table(always: ["port", "key", "key_file", "viewer_key", "viewer_key_file", "allowed_hosts", "https_port", "tls_names",
                                   "tls_certificate_file", "tls_key_file"])
        case "local_api": Table(always: ["port", "enablement_token", "enablement_token_file"])
        case "messages": Table(always: ["rate_limit", "allow", "block"])
        case "time": Table(always: ["clock"])
        case "location": Table(always: ["latitude", "longitude"])
        case "sound": Table(always: ["enabled", "device", "volume", "mute", "quiet_hours", "sample"])
        case "mqtt": Table(always: ["url", "device_id", "groups", "username", "password_file", "ca_file", "cert_file", "key_file",
                                    "protocol", "home_assistant", "base_topic", "keepalive"])
        case "panel": Table(always: ["id", "driver", "device", "model", "size", "rows", "columns", "pins", "drum", "drum_string", "period_ms",
                                     "transition", "show", "policy", "sender", "rotate_seconds", "quiet_hours", "quiet", "quiet_message"],
                            conditional: panelLED + panelVestaboard)
        case "schedule": Table(always: ["name", "days", "times", "cron", "time_zone", "text", "codes", "vbml", "quick_message", "align",
                                        "hold_minutes", "sender"])
        case "source": Table(always: ["name", "kind", "url", "every", "stale_after", "timeout", "headers", "header_files", "values", "fields",
                                      "limit", "countdown", "placeholder", "key_file"])
        case "trigger": Table(always: ["name", "source", "starts_within", "value", "above", "below", "equals", "text", "vbml", "quick_message",
                                       "duration", "cooldown", "sender"])
        case "sensor": Table(always: ["driver", "device", "straps", "format", "baud", "people", "names"])
        case "room": Table(always: ["name", "kiosk", "code", "names", "chime", "buzzer"])
        case "mirror": Table(always: ["id", "api", "url", "key_file", "token_file", "interval_seconds", "sender"])
        default: nil
        }
    }
}
