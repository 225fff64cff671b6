import FlapCore

/// The wall's modules take their firmware's commands: each ``ModuleCommand`` said as the
/// firmware's own (``RS485Command``), its answer read back in the owner's terms.
extension RS485Panel: TakesModuleCommands {
    public func send(_ command: ModuleCommand, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        let size = info.size
        guard (1...size.rows).contains(row), (1...size.columns).contains(column) else { throw .offTheBoard(rows: size.rows, columns: size.columns) }
        let index = (row - 1) * size.columns + column - 1
        let exchange: RS485Exchange
        do {
            exchange = try await self.command(try firmware(command), module: index)
        } catch let refusal as RS485CommandRefusal {
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
        case nil: break
        }
        if case .setID = command {
            reply.note = "the module answers to its new ID now; write it in the panel's ids in flapd.toml too, or the next start will not find it"
        }
        if case .measure = command, let steps = reply.revolution, steps != profile.stepsPerTurn {
            reply.note =
                "the module measured \(steps) steps a turn and the panel plans with \(profile.stepsPerTurn): set steps_per_revolution = \(steps) in flapd.toml"
        }
        return reply
    }

    /// `command` as the firmware spells it.
    private func firmware(_ command: ModuleCommand) throws(ModuleCommandError) -> RS485Command {
        switch command {
        case .home: return .home
        case .measure: return .calibrate
        case .offset(let steps): return .offset(steps)
        case .nudge(let steps): return .nudge(steps)
        case .store(let flap, let step):
            guard let byte = flap.unicodeScalars.first.flatMap({ $0.isASCII ? UInt8($0.value) : nil }), let place = reel.bytes.firstIndex(of: byte)
            else {
                throw .invalid("\(flap.debugDescription) is not a flap of the reel (\(String(decoding: reel.bytes, as: UTF8.self)))")
            }
            return .storeFlap(place, step: step)
        case .dump: return .dump
        case .setID(let new): return .setID(new)
        case .autoHome(let on): return .autoHome(on)
        case .erase: return .erase
        }
    }
}
