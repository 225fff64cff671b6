/// The commands an RS-485 module's firmware takes from an owner, as flapctl, the page and the
/// MCP tools offer them, and each said as the firmware's own (``RS485Command``).
enum RS485ModuleCommands {
    /// The widest a revolution may be, so the widest an offset or a nudge may be.
    private static let turn = 65_534

    static let declared: [ModuleCommandDeclaration] = [
        ModuleCommandDeclaration("home", "find home (the blank flap)"),
        ModuleCommandDeclaration("measure", "count the steps of a turn, then home"),
        ModuleCommandDeclaration(
            "offset", "the steps from the magnet to the blank flap",
            arguments: [ModuleArgument("steps", .number(0...turn), "within one turn of the module")]),
        ModuleCommandDeclaration(
            "nudge", "turn on that many steps, added to the offset",
            arguments: [ModuleArgument("steps", .number(1...turn), "less than one turn of the module")]),
        ModuleCommandDeclaration(
            "store", "the flap shows at that step",
            arguments: [
                ModuleArgument("flap", .character, "its character on the reel: A, q for the double quote, r for red"),
                ModuleArgument("steps", .number(0...turn), "within one turn of the module")
            ]),
        ModuleCommandDeclaration("dump", "what the module keeps: its offset, turn and stored positions"),
        ModuleCommandDeclaration("id", "the module's new ID", arguments: [ModuleArgument("id", .number(1...999), "no other module's")]),
        ModuleCommandDeclaration("auto-home", "home at power-up, or not", arguments: [ModuleArgument("on", .flag, "on to home at power-up")]),
        ModuleCommandDeclaration("erase", "forget the stored positions"),
        ModuleCommandDeclaration("hall-test", "turn once and test the Hall sensor (Universal Firmware)"),
        ModuleCommandDeclaration("diagnostics", "its supply, restarts and memory, without moving (Universal Firmware)"),
        ModuleCommandDeclaration(
            "motor-test", "turn that many times and compare the turns, about 4 s each (Universal Firmware)",
            arguments: [ModuleArgument("turns", .number(RS485Command.testTurns), "more find rarer slips")])
    ]

    /// `call` as the firmware spells it, with the flap's place on `reel`.
    static func firmware(_ call: ModuleCommandCall, reel: RS485Reel) throws(ModuleCommandError) -> RS485Command {
        func number(_ name: String) throws(ModuleCommandError) -> Int {
            guard let value = call.number(name) else { throw .invalid("\(call.name) needs \(name)") }
            return value
        }
        switch call.name {
        case "home": return .home
        case "measure": return .calibrate
        case "offset": return .offset(try number("steps"))
        case "nudge": return .nudge(try number("steps"))
        case "store":
            let flap = call.character("flap") ?? ""
            guard let byte = flap.unicodeScalars.first.flatMap({ $0.isASCII ? UInt8($0.value) : nil }), let place = reel.bytes.firstIndex(of: byte)
            else {
                throw .invalid("\(flap.debugDescription) is not a flap of the reel (\(String(decoding: reel.bytes, as: UTF8.self)))")
            }
            return .storeFlap(place, step: try number("steps"))
        case "dump": return .dump
        case "id": return .setID(try number("id"))
        case "auto-home": return .autoHome(call.flag("on") ?? false)
        case "erase": return .erase
        case "hall-test": return .hallTest
        case "diagnostics": return .diagnostics
        case "motor-test": return .mechanicalTest(turns: try number("turns"))
        default: throw .invalid("\(call.name.debugDescription) is not a command of these modules; they take \(declared.synopses)")
        }
    }
}
