/// A command a panel's modules take, as their driver declares it: its name, what it does and
/// what it takes. The route, flapctl's `module` and the MCP tools read the declaration; none of
/// them knows a firmware.
public struct ModuleCommandDeclaration: Sendable, Equatable {
    /// Its name, as the API, flapctl and MCP take it (`nudge`).
    public var name: String
    /// What it does, in a few words.
    public var help: String
    /// What it takes, in order.
    public var arguments: [ModuleArgument]

    /// Command `name`, doing `help`, taking `arguments`.
    public init(_ name: String, _ help: String, arguments: [ModuleArgument] = []) {
        self.name = name
        self.help = help
        self.arguments = arguments
    }

    /// `store FLAP STEPS`: how it is written on a command line.
    public var synopsis: String { ([name] + arguments.map { $0.name.uppercased() }).joined(separator: " ") }
}

/// What a module command takes.
public struct ModuleArgument: Sendable, Equatable {
    /// What kind of value an argument is.
    public enum Kind: Sendable, Equatable {
        /// A whole number within the firmware's widest range; a module may allow less (its own
        /// revolution), which its driver checks when it sends.
        case number(ClosedRange<Int>)
        /// One character (a flap, as the reel names it).
        case character
        /// On or off.
        case flag
    }

    /// Its name, as a JSON field and a flapctl word.
    public var name: String
    /// What kind of value it is.
    public var kind: Kind
    /// What it means, in a few words.
    public var help: String

    /// Argument `name` of `kind`, meaning `help`.
    public init(_ name: String, _ kind: Kind, _ help: String) {
        self.name = name
        self.kind = kind
        self.help = help
    }

    /// `steps, a whole number from 1 to 65534`: what a caller who left it out is told it needs.
    public var wanted: String {
        switch kind {
        case .number(let range): "\(name), a whole number from \(range.lowerBound) to \(range.upperBound) (\(help))"
        case .character: "\(name), one character (\(help))"
        case .flag: "\(name), true or false (\(help))"
        }
    }
}

/// A value given for a ``ModuleArgument``.
public enum ModuleArgumentValue: Sendable, Equatable {
    case number(Int)
    case character(String)
    case flag(Bool)
}

/// A command as asked: a declared command's name and a value for each of its arguments.
public struct ModuleCommandCall: Sendable, Equatable {
    /// The command's name.
    public var name: String
    /// Each argument's value, by name.
    public var values: [String: ModuleArgumentValue]

    /// A call of `name` with `values`.
    public init(_ name: String, _ values: [String: ModuleArgumentValue] = [:]) {
        self.name = name
        self.values = values
    }

    /// The number given for `argument`, if one was.
    public func number(_ argument: String) -> Int? {
        if case .number(let value)? = values[argument] { value } else { nil }
    }

    /// The character given for `argument`, if one was.
    public func character(_ argument: String) -> String? {
        if case .character(let value)? = values[argument] { value } else { nil }
    }

    /// The flag given for `argument`, if one was.
    public func flag(_ argument: String) -> Bool? {
        if case .flag(let value)? = values[argument] { value } else { nil }
    }
}

extension [ModuleCommandDeclaration] {
    /// `home, measure, offset STEPS, …`: the commands as a refusal lists them.
    public var synopses: String { map(\.synopsis).joined(separator: ", ") }

    /// The call of the command named `name`, each of its arguments read by `value` (nil when
    /// it was not given, or not of its kind); refused naming the command or the argument.
    public func call(_ name: String, value: (ModuleArgument) -> ModuleArgumentValue?) throws(ModuleCommandError) -> ModuleCommandCall {
        guard let declaration = first(where: { $0.name == name }) else {
            throw .invalid("\(name.debugDescription) is not a command of these modules; they take \(synopses)")
        }
        var call = ModuleCommandCall(name)
        for argument in declaration.arguments {
            guard let given = value(argument) else { throw .invalid("\(name) needs \(argument.wanted)") }
            call.values[argument.name] = given
        }
        return call
    }
}

/// What a module said to a command, as the API answers it.
public struct ModuleReply: Sendable, Encodable, Equatable {
    /// The panel the module is in.
    public var panel: String
    /// The module's row, from 1.
    public var row: Int
    /// The module's column, from 1.
    public var column: Int
    /// The module's ID (its new one after a command that changes it).
    public var id: Int
    /// The frame sent, without its newlines (`m05h`).
    public var sent: String
    /// The revolution it measured, in steps.
    public var revolution: Int?
    /// Its offset, revolution and stored positions (by flap character), from a dump.
    public var offset: Int?
    /// Its revolution, in steps, from a dump.
    public var steps: Int?
    /// Its stored positions by flap character, from a dump.
    public var positions: [String: Int]?
    /// What the owner should do next, when there is something (`ids` in flapd.toml after a new ID).
    public var note: String?
    /// What a test of the module found wrong, each in a household's words ("the magnet is not
    /// seen: check the Hall sensor's wiring"); empty when the test found it well.
    public var findings: [String]?
    /// The test's own figures, by name (`supplyMillivolts`).
    public var measured: [String: Int]?

    /// A reply of the module `id` at (`row`, `column`) of `panel` to the frame `sent`.
    public init(panel: String, row: Int, column: Int, id: Int, sent: String) {
        self.panel = panel
        self.row = row
        self.column = column
        self.id = id
        self.sent = sent
    }
}

/// Why a module command could not be sent.
public enum ModuleCommandError: Error, Sendable, Equatable {
    /// The panel has no modules that take commands, or there is no such panel.
    case noModules(panel: String)
    /// The row or column is off the board.
    case offTheBoard(rows: Int, columns: Int)
    /// A value the command takes is wrong, said in words.
    case invalid(String)
    /// The module did not answer in time, or the bus failed.
    case noAnswer(String)
    /// The module's firmware has no such command (a self-test asked of an older firmware).
    case unknownToModule(String)
    /// Something already under way takes the bus (a search), said in words.
    case busy(String)
}

/// A panel whose modules take commands of their own firmware, one module at a time (an RS-485
/// wall's). A capability a panel may have: generic code asks for it with
/// `as? any TakesModuleCommands`, as Hummingbird asks a context for what it can do.
public protocol TakesModuleCommands: Panel {
    /// The commands its modules take.
    nonisolated var moduleCommands: [ModuleCommandDeclaration] { get }
    /// Sends `call` (one of ``moduleCommands``) to the module at `row`, `column` (1-based),
    /// between boards, and waits for its answer when it gives one.
    func send(_ call: ModuleCommandCall, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply
}
