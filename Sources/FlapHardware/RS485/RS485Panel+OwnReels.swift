/// Modules whose reel is not the wall's: told their flaps when configured, asked them when not.
extension RS485Panel {
    /// Tells each module with a reel of its own its flaps (`N`), which Universal Firmware keeps
    /// and v7 ignores; it is home, and flap 0 is blank on every reel, so nothing moves.
    /// How long an `A` answer may take: Universal Firmware answers at once, about 110 bytes at
    /// 9600 baud.
    static var flapsWait: Duration { .milliseconds(400) }

    func tellOwnReels() async throws {
        for index in ids.indices where reels[index] != reel {
            do {
                try await bus.send(RS485Frame.encode(.flaps(reels[index].bytes), to: .module(ids[index])))
            } catch let error as HardwareError {
                say(.warning, "\(bus.device): could not tell module \(ids[index]) its own flaps (\(error))")
                return
            }
        }
    }

    /// Asks each Universal Firmware module whose reel the configuration does not give for its
    /// flaps (`A`): one that carries others than the wall's reel is planned, sent and read back
    /// by its own from then on. A v7 module, one not known to run Universal Firmware, or one
    /// silent to its dump (a wall unpowered would cost each its wait) is not asked.
    func askOwnFlaps() async throws {
        for index in ids.indices where firmwares[index] == .universal && !configuredReels.contains(index) && answeredAtStart.contains(index) {
            await bus.discardAnswers()
            try await bus.send(frame(.about, module: index))
            guard case .about(_, _, _, let flaps?)? = try await bus.answer(from: ids[index], within: Self.flapsWait) else { continue }
            do {
                let own = try RS485Reel(flaps)
                guard own != reels[index] else { continue }
                reels[index] = own
                say(.info, "\(bus.device): module \(ids[index]) carries \(own.bytes.count) flaps of its own (\(flaps)); planned by them")
            } catch {
                say(.warning, "\(bus.device): module \(ids[index]) says flaps flapd cannot plan by (\(error)); planned by the wall's reel")
            }
        }
    }
}
