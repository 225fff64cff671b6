import FlapCore
import FlapHTTP
import FlapHardware

/// Module commands on the panels whose modules take them: an RS-485 wall's.
extension ApplianceBoards {
    func send(_ command: ModuleCommand, panel id: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleReply {
        guard let runtime = panels.first(where: { $0.configuration.id == id }), let wall = runtime.panel as? RS485Panel<ContinuousClock>
        else { throw .noModules(panel: id) }
        let modules = runtime.configuration.options(RS485PanelKind.Modules.self) ?? RS485PanelKind.Modules()
        let size = wall.info.size
        guard (1...size.rows).contains(row), (1...size.columns).contains(column) else { throw .offTheBoard(rows: size.rows, columns: size.columns) }
        let index = (row - 1) * size.columns + column - 1
        let reel = modules.reel
        let firmware: RS485Command
        switch command {
        case .home: firmware = .home
        case .measure: firmware = .calibrate
        case .offset(let steps): firmware = .offset(steps)
        case .nudge(let steps): firmware = .nudge(steps)
        case .store(let flap, let step):
            guard let byte = flap.unicodeScalars.first.flatMap({ $0.isASCII ? UInt8($0.value) : nil }), let place = reel.bytes.firstIndex(of: byte)
            else {
                throw .invalid("\(flap.debugDescription) is not a flap of the reel (\(String(decoding: reel.bytes, as: UTF8.self)))")
            }
            firmware = .storeFlap(place, step: step)
        case .dump: firmware = .dump
        case .setID(let new): firmware = .setID(new)
        case .autoHome(let on): firmware = .autoHome(on)
        case .erase: firmware = .erase
        }
        let exchange: RS485Exchange
        do {
            exchange = try await wall.command(firmware, module: index)
        } catch let refusal as RS485CommandRefusal {
            throw .invalid("\(refusal)")
        } catch {
            throw .noAnswer("\(error)")
        }
        let ids = await wall.ids
        var reply = ModuleReply(panel: id, row: row, column: column, id: ids[index], sent: exchange.sent)
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
        if case .measure = command, let steps = reply.revolution, steps != wall.profile.stepsPerTurn {
            reply.note =
                "the module measured \(steps) steps a turn and the panel plans with \(wall.profile.stepsPerTurn): set steps_per_revolution = \(steps) in flapd.toml"
        }
        return reply
    }
}
