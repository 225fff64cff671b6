/// The examples each command's `--help` ends with. docs/flapctl.md's "flapctl examples" lists the same
/// lines, and a test parses every one, so help, docs and flapctl cannot drift apart.
enum HelpExamples {
    static let byCommand: [(command: String, lines: [String])] = [
        (
            "layout",
            [
                #"flapctl layout "Hello World""#,
                #"flapctl layout --align left --valign top "Dinner at 7 {66}""#,
                #"flapctl layout --json --size note "SEE YOU SOON""#,
                #"flapctl layout --jsonl < requests.jsonl"#
            ]
        ),
        (
            "plan",
            [
                #"flapctl plan --from "HELLO" --to "WORLD""#,
                #"flapctl plan --json --strategy diagonal --from "HELLO" --to "WORLD""#
            ]
        ),
        (
            "preview",
            [
                #"flapctl preview --from "HELLO" "WORLD""#,
                #"flapctl preview --png board.png "GOOD MORNING""#,
                #"flapctl preview --gif flip.gif --wav flip.wav --from "HELLO" "WORLD""#
            ]
        ),
        (
            "send",
            [
                #"flapctl send "Hello from the wall""#,
                #"flapctl send --sender kitchen --wait "Dinner at 7 {66}""#,
                #"flapctl send --at 07:00 --sender kitchen "Good morning""#,
                #"flapctl send --for 60 --sender door "DOOR OPEN""#,
                #"flapctl send --mqtt mqtt://broker:1883 --to hall,kitchen "Hello""#
            ]
        ),
        (
            "scheduled",
            [
                #"flapctl scheduled"#,
                #"flapctl scheduled cancel ID"#
            ]
        ),
        (
            "schedule",
            [
                #"flapctl schedule add morning --days mon-fri --at 07:00 "GOOD MORNING""#,
                #"flapctl schedule add bins --cron "30 19 * * tue" --zone Europe/Berlin --hold 180 "BINS OUT TONIGHT""#,
                #"flapctl schedule list"#,
                #"flapctl schedule remove bins"#
            ]
        ),
        ("board", [#"flapctl board"#, #"flapctl board --json"#]),
        ("status", [#"flapctl status"#, #"flapctl status --json"#]),
        ("slots", [#"flapctl slots"#, #"flapctl slots --clear kitchen"#, #"flapctl slots --end-temporary"#]),
        ("receipts", [#"flapctl receipts"#, #"flapctl receipts --sender kitchen --limit 50"#]),
        ("hr", [#"flapctl hr"#, #"flapctl hr --ble"#, #"flapctl hr --serial /dev/ttyACM0"#]),
        (
            "room",
            [
                #"flapctl room"#,
                #"flapctl room create"#,
                #"flapctl room join K7Q2MX"#,
                #"flapctl room leave"#,
                #"flapctl room watch"#
            ]
        ),
        ("queue", [#"flapctl queue"#, #"flapctl queue retry 12"#, #"flapctl queue cancel 12"#]),
        ("sources", [#"flapctl sources"#, #"flapctl sources refresh weather"#, #"flapctl sources push door state=open"#]),
        (
            "template",
            [
                #"flapctl template save lunch "LUNCH IS READY""#,
                #"flapctl template save morning --from-board"#,
                #"flapctl template send lunch"#,
                #"flapctl template list"#
            ]
        ),
        ("forget", [#"flapctl forget --mqtt mqtt://broker:1883 --device-id old-hall"#]),
        ("calibrate", [#"flapctl calibrate"#, #"flapctl calibrate --row 2 --column 5 --nudge 3"#]),
        (
            "module",
            [
                #"flapctl module --panel wall"#,
                #"flapctl module --row 1 --column 3 dump"#,
                #"flapctl module --row 1 --column 3 measure"#,
                #"flapctl module --row 1 --column 3 nudge 12"#,
                #"flapctl module --row 1 --column 3 store A 70"#,
                #"flapctl module --panel wall --row 2 --column 1 id 16"#,
                #"flapctl module --panel station --row 1 --column 2 about"#,
                #"flapctl module --panel station --row 1 --column 2 show 12"#
            ]
        ),
        (
            "modules",
            [
                #"flapctl modules check"#, #"flapctl modules check --panel wall --motor 10"#, #"flapctl modules number --panel wall"#,
                #"flapctl modules find --panel station --first 0 --last 40"#
            ]
        ),
        ("render", [#"flapctl render --device max7219 --bitmap smile.pbm --out -"#]),
        (
            "vbml",
            [
                #"flapctl vbml < board.json"#,
                #"flapctl vbml --size note < note.json"#,
                #"flapctl vbml --jsonl < documents.jsonl"#
            ]
        ),
        ("mcp", [#"flapctl mcp"#, #"flapctl mcp --url http://flapd.local:8080 --api-key KEY"#]),
        ("pair", [#"flapctl pair"#, #"flapctl pair --host board.home"#]),
        ("setup-code", [#"flapctl setup-code"#, #"flapctl setup-code --new"#]),
        (
            "hardware",
            [
                #"flapctl hardware"#, #"flapctl hardware --search"#, #"flapctl hardware --search --first-id 1 --last-id 64"#,
                #"flapctl hardware --vestaboard vestaboard.local --enablement-token TOKEN"#, #"flapctl hardware --straps"#
            ]
        ),
        (
            "settings",
            [
                #"flapctl settings"#, #"flapctl settings show sound"#, #"flapctl settings set sound.volume 40"#,
                #"flapctl settings set panel[0].size 3x15"#, #"flapctl settings unset sound.volume"#
            ]
        ),
        (
            "simulate-hardware",
            [
                #"flapctl simulate-hardware --devices /tmp/dev"#, #"flapctl simulate-hardware --devices /tmp/dev --rs485 1-16 --chainlink 0"#,
                #"flapctl simulate-hardware --devices /tmp/dev --firmware universal --unnumbered 4"#,
                #"flapctl simulate-hardware --devices /tmp/dev --firmware universal --dead-hall-sensor 3"#,
                #"flapctl simulate-hardware --devices /tmp/dev --firmware universal --v7-module 8"#,
                #"flapctl simulate-hardware --devices /tmp/dev --rs485 0 --unnumbered 16 --swap-on-signal 2"#
            ]
        ),
        ("invite", [#"flapctl invite Mum"#, #"flapctl invite "Grand Pa" --sender gramps"#])
    ]

    /// `text`, then the command's examples.
    static func discussion(_ command: String, _ text: String = "") -> String {
        let lines = byCommand.first { $0.command == command }?.lines ?? []
        let examples = "Examples:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
        return text.isEmpty ? examples : text + "\n\n" + examples
    }
}
