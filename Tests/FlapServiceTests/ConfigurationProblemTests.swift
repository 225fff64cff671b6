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
        #expect(kind(at: "api.key", in: found) == .bothGiven("key", file: "key_file"))
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
            (.bothGiven("key", file: "key_file"), "give key or key_file, not both"),
            (.unknownKey(suggestion: "policy", known: ["id", "policy"]), "unknown key (did you mean policy?); known keys here: id, policy"),
            (.unknownKey(suggestion: nil, known: ["clock"]), "unknown key; known keys here: clock"),
            (.elsewhere("chain is a hub75 setting"), "chain is a hub75 setting"),
            (.rule("must be 50 to 200 ms, not 20"), "must be 50 to 200 ms, not 20")
        ]
        for (problem, words) in said { #expect(problem.description == words) }
    }
}
