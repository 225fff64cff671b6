import FlapCore

/// The wall's modules take their firmware's commands: each call said as the firmware's own
/// (``RS485Command``), its answer read back in the owner's terms.
extension RS485Panel: TakesModuleCommands {
    /// The commands its firmware takes (the tests only Universal Firmware's).
    public nonisolated var moduleCommands: [ModuleCommandDeclaration] { RS485ModuleCommands.declared }

    /// Sends `call` to the module at (`row`, `column`), refusing a value the module cannot mean, and reads its answer.
    public func send(_ call: ModuleCommandCall, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        let size = info.size
        guard (1...size.rows).contains(row), (1...size.columns).contains(column) else { throw .offTheBoard(rows: size.rows, columns: size.columns) }
        let index = (row - 1) * size.columns + column - 1
        let reel = reels[index]
        let command = try RS485ModuleCommands.firmware(call, reel: reel)
        let exchange: RS485Exchange
        do {
            exchange = try await self.command(command, module: index)
        } catch let refusal as RS485CommandRefusal {
            if case .unknownToFirmware = refusal { throw .unknownToModule("\(refusal)") }
            throw .invalid("\(refusal)")
        } catch let error as ModuleCommandError {
            throw error
        } catch {
            throw .noAnswer("\(error)")
        }
        var reply = ModuleReply(panel: info.id, row: row, column: column, id: ids[index], sent: exchange.sent)
        switch exchange.answer {
        case .revolution(_, let steps)?: reply.revolution = steps
        case .dump(_, let offset, let steps, let positions)?:
            reply.offset = offset
            reply.steps = steps
            reply.positions = Dictionary(
                positions.compactMap { place, step in place < reel.bytes.count ? (String(UnicodeScalar(reel.bytes[place])), step) : nil }
            ) { a, _ in a }
        case .hall, .diagnostics, .mechanical:
            (reply.findings, reply.measured) = exchange.answer.flatMap(RS485ModuleHealth.read) ?? ([], [:])
            testFindings[index, default: [:]][call.name] = reply.findings
        case .version, .about, .announcement, .numbered, nil: break
        }
        if case .setID = command {
            reply.note = "the module answers to its new ID now; write it in the panel's ids in flapd.toml too, or the next start will not find it"
        }
        if case .calibrate = command, let steps = reply.revolution, steps != profile.stepsPerTurn {
            reply.note =
                "the module measured \(steps) steps a turn and the panel plans with \(profile.stepsPerTurn): set steps_per_revolution = \(steps) in flapd.toml"
        }
        return reply
    }

}
