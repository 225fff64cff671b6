import FlapCore

/// The station modules take their controller's commands from an owner, one module at a time:
/// asked what it is, sent to a blade by its index, home or on by one, given a new address.
extension SBBPanel: TakesModuleCommands {
    /// The commands an SBB/annax module takes.
    public nonisolated var moduleCommands: [ModuleCommandDeclaration] {
        [
            ModuleCommandDeclaration("about", "which blade it shows, its serial number, its firmware's version and its blade set's type"),
            ModuleCommandDeclaration(
                "show", "turn to that blade, by its index",
                arguments: [ModuleArgument("blade", .number(0...254), "0 is home; within the module's blades")]),
            ModuleCommandDeclaration("home", "back to blade 0"),
            ModuleCommandDeclaration("step", "on by one blade"),
            ModuleCommandDeclaration(
                "address", "the module's new address", arguments: [ModuleArgument("address", .number(0...255), "no other module's")])
        ]
    }

    /// Sends `call` to the module at (`row`, `column`) between boards, refusing a value it
    /// cannot mean; a module it turns is read back once it rests, and flapd starts from there.
    public func send(_ call: ModuleCommandCall, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        let size = info.size
        guard (1...size.rows).contains(row), (1...size.columns).contains(column) else { throw .offTheBoard(rows: size.rows, columns: size.columns) }
        let index = (row - 1) * size.columns + column - 1
        let address = addresses[index]
        let command = try command(for: call, blades: blades(index))
        await takeTurn()
        defer { endTurn() }
        var reply = ModuleReply(panel: info.id, row: row, column: column, id: address, sent: "")
        do {
            reply.sent = try command.frame(to: address).map(SBBCommand.hex).joined(separator: " ")
            switch command {
            case .position, .serial, .version, .type:
                var measured: [String: Int] = [:]
                for asked in [SBBCommand.position, .serial, .version, .type] {
                    switch try await bus.ask(asked, of: address) {
                    case .position(let blade)?: measured["blade"] = blade
                    case .serial(let serial)?: measured["serial"] = Int(serial)
                    case .version(let version)?: measured["version"] = version
                    case .type(let type)?: measured["type"] = type
                    case nil: throw ModuleCommandError.noAnswer("the module at \(address) did not answer: is its address right, and its supply on?")
                    }
                }
                reply.measured = measured
            case .setAddress(let new):
                try await bus.send(command, to: address)
                guard case .serial? = try await bus.ask(.serial, of: new) else {
                    throw ModuleCommandError.noAnswer("no module answers at \(new) after the change: is the old address (\(address)) right?")
                }
                addresses[index] = new
                reply.id = new
                reply.note =
                    "the module answers to \(new) now; write it in the panel's addresses in flapd.toml too, or the next start will not find it"
            case .show, .zero, .step:
                try await bus.send(command, to: address)
                try await clock.sleep(until: clock.now.advanced(by: bladeTime), tolerance: nil)
                guard let blade = try await bladeAtRest(module: index) else {
                    throw ModuleCommandError.noAnswer("the module at \(address) did not say where it landed: is its address right?")
                }
                estimated[index] = blades(index).drumFlap(atBlade: blade)
                reply.measured = ["blade": blade]
            }
        } catch let error as ModuleCommandError {
            throw error
        } catch {
            throw .noAnswer("\(error)")
        }
        return reply
    }

    private func command(for call: ModuleCommandCall, blades: SBBBlades) throws(ModuleCommandError) -> SBBCommand {
        switch call.name {
        case "about": return .position
        case "show":
            guard let blade = call.number("blade"), (0..<blades.count).contains(blade) else {
                throw .invalid("show needs blade, one of this module's 0 to \(blades.count - 1)")
            }
            return .show(blade)
        case "home": return .zero
        case "step": return .step
        case "address":
            guard let new = call.number("address"), (0...255).contains(new) else { throw .invalid("address needs address, 0 to 255") }
            if let other = addresses.firstIndex(of: new) {
                throw .invalid("address \(new) is the module's at row \(other / info.size.columns + 1), column \(other % info.size.columns + 1)")
            }
            return .setAddress(new)
        default: throw .invalid("\(call.name.debugDescription) is not a command of these modules; they take \(moduleCommands.synopses)")
        }
    }
}
