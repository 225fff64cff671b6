import Testing

@testable import FlapService

/// The checks every table makes are cases a test matches; each case keeps its words.
@Suite struct ConfigurationProblemTests {
    func problems(_ text: String) -> [ConfigurationError.Problem] {
        do {
            _ = try ConfigurationParser.parse(text, file: "flapd.toml")
            return []
        } catch {
            return error.problems
        }
    }

    func kind(at key: String, in problems: [ConfigurationError.Problem]) -> ConfigurationProblem? {
        problems.first { $0.key == key }?.kind
    }

    @Test func theReadersChecksAreCasesWithTheirKeyAndLine() {
        let found = problems(
            """
            listen = 5
            [api]
            port = 70000
            key = "k"
            key_file = "/k"
            [[panel]]
            model = "mini"
            polcy = "latest"
            [[sensor]]
            driver = "ble"
            baud = 9600
            [[sensor]]
            driver = "ant"
            straps = "12345"
            [[source]]
            name = "w"
            kind = "json"
            url = "https://example.com"
            values = { t = "/t" }
            every = "soon"
            """)
        #expect(kind(at: "listen", in: found) == .notAString)
        #expect(found.first { $0.key == "listen" }?.line == 1)
        #expect(kind(at: "api.port", in: found) == .notAPort(70000))
        #expect(kind(at: "api.key", in: found) == .notBoth("key", "key_file"))
        #expect(kind(at: "panel[0].model", in: found) == .notOneOf("mini", choices: ["flagship", "note"]))
        guard case .unknownKey(let suggestion, let known)? = kind(at: "panel[0].polcy", in: found) else {
            Issue.record("polcy: \(found)")
            return
        }
        #expect(suggestion == "policy" && known.contains("policy"))
        #expect(kind(at: "sensor[0].baud", in: found) == .elsewhere("baud is a setting of an ant or serial sensor; this sensor is ble"))
        #expect(kind(at: "sensor[1].straps", in: found) == .notAList(example: "[12345, 23456]"))
        #expect(kind(at: "source[0].every", in: found) == .notAnInterval)
    }

    @Test func theTablesOwnRangesNamesAndPairingsAreCasesToo() {
        let found = problems(
            """
            [messages]
            rate_limit = -1
            [mqtt]
            url = "mqtt://b:1883"
            keepalive = 2
            [[panel]]
            id = "main"
            period_ms = 20
            rotate_seconds = 5
            quiet_hours = "10pm-7am"
            [[panel]]
            id = "main"
            size = "6x22"
            rows = 3
            [[panel]]
            id = "board"
            driver = "vestaboard"
            url = "vestaboard.local"
            key_file = "/k"
            [time]
            clock = "atomic"
            """)
        #expect(kind(at: "messages.rate_limit", in: found) == .outOfRange(given: "-1", allowed: "0 (no limit) or more"))
        #expect(kind(at: "mqtt.keepalive", in: found) == .outOfRange(given: nil, allowed: "at least 5 seconds"))
        #expect(kind(at: "panel[0].period_ms", in: found) == .outOfRange(given: "20", allowed: "50 to 200 ms"))
        #expect(kind(at: "panel[0].rotate_seconds", in: found) == .onlyFor("rotate_seconds", "policy = \"rotate\""))
        #expect(kind(at: "panel[0].quiet_hours", in: found) == .notASpanOfTime("10pm-7am"))
        #expect(kind(at: "panel[1].id", in: found) == .nameTaken("main", kind: "panel", key: "id"))
        #expect(kind(at: "panel[1].rows", in: found) == .notBoth("size", "rows/columns"))
        #expect(kind(at: "panel[2].url", in: found) == .notAnHTTPAddress("vestaboard.local"))
        #expect(kind(at: "time.clock", in: found) == .notOneOf("atomic", choices: ["auto", "trusted"]))
    }

    @Test func whatATableCannotDoWithoutIsACaseToo() {
        let found = problems(
            """
            [api]
            tls_certificate_file = "/c.pem"
            [mqtt]
            keepalive = 30
            [[panel]]
            id = "main"
            size = "6by22"
            policy = "sender"
            [[panel]]
            id = "wall"
            driver = "rs485"
            reel = " ABC"
            ids = [[1, 2, 2]]
            [[panel]]
            id = "notes"
            driver = "vestaboard"
            api = "local"
            key_file = "/k"
            [[trigger]]
            name = "frost"
            source = "weather"
            below = 0
            above = 5
            value = "t"
            text = "A"
            quick_message = "frost"
            """)
        #expect(kind(at: "api.tls_certificate_file", in: found) == .givenWithout("tls_key_file", why: "the certificate's private key"))
        #expect(kind(at: "mqtt.url", in: found) == .needs("[mqtt]", "url = \"mqtt://broker:1883\""))
        #expect(kind(at: "panel[0].size", in: found) == .notInForm("6by22", form: "flagship, note or ROWSxCOLUMNS such as 6x22"))
        #expect(kind(at: "panel[0].policy", in: found) == .needs("policy = \"sender\"", "sender = \"<sender id>\""))
        #expect(kind(at: "panel[1].size", in: found) == .needs("an rs485 panel", "its size, such as size = \"3x15\" (its modules are not counted)"))
        #expect(kind(at: "panel[2].url", in: found) == .isNeeded("the board's Local API address", example: "url = \"http://vestaboard.local:7000\""))
        #expect(kind(at: "trigger[0].starts_within", in: found) == .onlyOne(of: ["starts_within", "above", "below", "equals"]))
        #expect(kind(at: "trigger[0].text", in: found) == .onlyOne(of: ["text", "vbml", "quick_message"]))
        #expect(
            problems("[[source]]\nkind = \"json\"\n").contains {
                $0.kind == .needs("each [[source]]", "a name, such as name = \"weather\" (templates say {{weather.temperature}})")
            })
    }

    @Test func aKeyFarFromEveryKnownOneSuggestsNone() {
        guard case .unknownKey(let suggestion, _)? = kind(at: "time.zzzzzzzz", in: problems("[time]\nzzzzzzzz = 1\n")) else {
            Issue.record("no unknown key")
            return
        }
        #expect(suggestion == nil)
    }

    /// Each case in the words the file's author reads.
    @Test func eachCaseSaysWhatIsWrong() {
        let said: [(ConfigurationProblem, String)] = [
            (.notAString, "must be a string (in quotes)"),
            (.notAWholeNumber, "must be a whole number"),
            (.notANumber, "must be a number"),
            (.notATextOrWholeNumber, "must be a text or a whole number"),
            (.notABoolean, "must be true or false"),
            (.notAPort(70000), "must be a port number, 1 to 65535 (0: any free port), not 70000"),
            (.notOneOf("mini", choices: ["flagship", "note"]), "\"mini\" is not one of flagship, note"),
            (.notAListOfStrings, "must be a list of strings, such as [\"kitchen\", \"phone\"]"),
            (.notAList(example: "[1, 2]"), "must be a list, such as [1, 2]"),
            (.notAListOfLists(example: "[[1], [2]]"), "must be a list of lists of whole numbers, such as [[1], [2]]"),
            (.notAnInterval, "must be seconds (600) or a time with its unit (\"30s\", \"10m\", \"2h\", \"1d\")"),
            (.notATable("api"), "must be a table ([api])"),
            (.notTables("panel"), "must be written as [[panel]] tables"),
            (.notATableEntry, "must be a table"),
            (.notBoth("key", "key_file"), "give key or key_file, not both"),
            (.outOfRange(given: "20", allowed: "50 to 200 ms"), "must be 50 to 200 ms, not 20"),
            (.outOfRange(given: nil, allowed: "at least 5 seconds"), "must be at least 5 seconds"),
            (.nameTaken("main", kind: "panel", key: "id"), "another panel is called main too; give each its own id"),
            (.notAnHTTPAddress("vestaboard.local"), "\"vestaboard.local\" is not an http:// or https:// address"),
            (.notASpanOfTime("10pm-7am"), "\"10pm-7am\" is not a span of local time such as \"22:00-07:00\""),
            (.onlyFor("rotate_seconds", "policy = \"rotate\""), "rotate_seconds is for policy = \"rotate\""),
            (.unknownKey(suggestion: "policy", known: ["id", "policy"]), "unknown key (did you mean policy?); known keys here: id, policy"),
            (.unknownKey(suggestion: nil, known: ["clock"]), "unknown key; known keys here: clock"),
            (.elsewhere("chain is a hub75 setting"), "chain is a hub75 setting"),
            (.needs("[mqtt]", "url = \"mqtt://broker:1883\""), "[mqtt] needs url = \"mqtt://broker:1883\""),
            (.isNeeded("the Note's Local API key", example: "key_file = \"/k\""), "the Note's Local API key is needed: key_file = \"/k\""),
            (.givenWithout("tls_key_file", why: "the certificate's private key"), "give tls_key_file too: the certificate's private key"),
            (
                .notInForm("6by22", form: "flagship, note or ROWSxCOLUMNS such as 6x22"),
                "\"6by22\" is not flagship, note or ROWSxCOLUMNS such as 6x22"
            ),
            (.onlyOne(of: ["text", "vbml", "quick_message"]), "give one of text, vbml and quick_message"),
            (.givenTwice("module ID 7"), "module ID 7 is given twice"),
            (
                .rule("an array's boards are Notes: leave model out, or model = \"note\""),
                "an array's boards are Notes: leave model out, or model = \"note\""
            )
        ]
        for (problem, words) in said { #expect(problem.description == words) }
    }
}
