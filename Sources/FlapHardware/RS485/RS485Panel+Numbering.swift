import FlapCore

/// Numbering a wall of Universal Firmware's modules from where they hang. A module with no ID
/// announces its serial number; there is no command to show a flap by serial number, so a
/// module to be marked is lent an ID no place has (`mXI<serial>:<id>`), and shown the mark by
/// it. Placed, it is given its place's ID the same way, and shows blank again: the places keep
/// the panel's own IDs, so nothing in its configuration changes.
extension RS485Panel: NumbersModules {
    /// How long a module may take to say it took an ID: it reads the frame only once it rests,
    /// and the mark may still be turning (up to a turn).
    var numberingWait: Duration { profile.duration(steps: profile.stepsPerTurn) + .seconds(1) }

    /// An announcement not heard again for this long is of a module gone (they come every 10
    /// to 15 s, and a broadcast holds them back 30 s).
    static var announcementsLast: Duration { .seconds(60) }

    /// The flap that marks the module to place: the reel's `?`.
    var markFlap: Int {
        reel.reelIndex.indices.first { reel.byte(forDrumFlap: $0) == UInt8(ascii: "?") } ?? min(1, reel.reelIndex.count - 1)
    }

    /// Where the numbering stands; `asking` first asks each place's ID for its version.
    public func numbering(asking: Bool) async -> ModuleNumbering {
        if asking {
            do {
                try await homed()
                await takeTheBus()
                defer { releaseTheBus() }
                try await askEachPlace()
            } catch {
                say(.warning, "\(bus.device): could not ask who answers at each place: \(error)")
            }
        }
        return await numberingNow()
    }

    /// Makes the module `serial` show `?` (lent an ID first when it has none), and the one
    /// marked before show blank again.
    public func mark(serial: String) async throws(ModuleCommandError) -> ModuleNumbering {
        let serial = serial.uppercased()
        try await numberingStep {
            try await self.known(serial)
            if let previous = self.numberingState.marked, previous != serial, let id = self.reachableID(previous) {
                try await self.showDirectly(0, module: id)
            }
            self.numberingState.marked = nil
            try await self.showDirectly(self.markFlap, module: try await self.idForShowing(serial))
            self.numberingState.marked = serial
        }
        return await numberingNow()
    }

    /// Gives the module `serial` the ID of the place at `row`, `column`.
    public func place(serial: String, row: Int, column: Int) async throws(ModuleCommandError) -> ModuleNumbering {
        let size = info.size
        guard (1...size.rows).contains(row), (1...size.columns).contains(column) else { throw .offTheBoard(rows: size.rows, columns: size.columns) }
        let serial = serial.uppercased()
        let index = (row - 1) * size.columns + column - 1
        try await numberingStep { try await self.place(serial, at: index) }
        return await numberingNow()
    }

    /// Gives the module `serial` the ID of place `index`; the caller has the bus.
    private func place(_ serial: String, at index: Int) async throws {
        try await known(serial)
        guard numberingState.places[index] != .answers(serial: serial) else { return }
        // The module that answered here before moves aside, to be placed again.
        if case .answers(let other) = numberingState.places[index] {
            guard let other else {
                throw ModuleCommandError.invalid(
                    "module \(ids[index]) answers at that place and has no serial number (firmware v7), so it cannot be moved aside: take it off the bus first"
                )
            }
            try await lend(to: other)
            numberingState.places[index] = .silent
        }
        let marked = numberingState.marked == serial
        try await give(serial, id: ids[index])
        if let before = numberingState.place(of: serial) { numberingState.places[before] = .silent }
        numberingState.lent[serial] = nil
        numberingState.places[index] = .answers(serial: serial)
        firmwares[index] = .universal
        stored[index] = [:]
        revolutions[index] = profile.stepsPerTurn
        // It rests (it answered), on the mark or, new, home.
        committed[index] = marked ? markFlap : 0
        estimated[index] = committed[index]
        busyUntil[index] = nil
        // Its stored flap positions, which its plans are timed by (a module calibrated on another
        // wall keeps its calibration); silent, the reel's own.
        if let answer = try? await askDump(module: index) { learn(answer, module: index) }
        if marked {
            numberingState.marked = nil
            try await showDirectly(0, module: ids[index])
        }
    }

    /// Runs `step` with the bus, once the wall is home, its failures said as a module command's.
    private func numberingStep(_ step: () async throws -> Void) async throws(ModuleCommandError) {
        do {
            try await homed()
            await takeTheBus()
            defer { releaseTheBus() }
            try await step()
        } catch let error as ModuleCommandError {
            throw error
        } catch {
            throw .noAnswer("\(error)")
        }
    }

    /// Refuses a serial number no module said.
    private func known(_ serial: String) async throws {
        let heard = await bus.announced[serial] != nil
        guard heard || numberingState.lent[serial] != nil || numberingState.place(of: serial) != nil else {
            throw ModuleCommandError.invalid(
                "no module \(serial) was heard: a module with no ID announces its serial number every 10 to 15 s, and one with an ID is heard once the places are asked"
            )
        }
    }

    /// The ID the module `serial` answers to now, if it has one.
    private func reachableID(_ serial: String) -> Int? {
        numberingState.place(of: serial).map { ids[$0] } ?? numberingState.lent[serial]
    }

    /// The ID to show the module `serial` a flap by: its own, or one lent to it.
    private func idForShowing(_ serial: String) async throws -> Int {
        if let id = reachableID(serial) { return id }
        return try await lend(to: serial)
    }

    /// Lends the module `serial` an ID no place has.
    @discardableResult
    private func lend(to serial: String) async throws -> Int {
        guard let id = numberingState.idToLend(besides: ids) else {
            throw ModuleCommandError.invalid("every ID from 1 to 254 is taken: place the modules already marked first")
        }
        try await give(serial, id: id)
        numberingState.lent[serial] = id
        return id
    }

    /// `mXI<serial>:<id>`, and its acknowledgement awaited.
    private func give(_ serial: String, id: Int) async throws {
        await bus.discardAnswers()
        try await bus.send(RS485Frame.encodeNumbering(serial: serial, id: id))
        let taken = try await bus.answer(within: numberingWait) { $0 == .numbered(serial: serial, id: id) }
        guard taken != nil else {
            throw HardwareError(
                device: bus.device, problem: "module \(serial) did not say it took ID \(id) within \(numberingWait)",
                remedy: "is it still on the bus? Without an ID it announces itself every 10 to 15 s")
        }
        await bus.forgetAnnouncement(serial)
    }

    /// Shows drum flap `flap` on the module `id`; a module of a place is followed, as a board's.
    private func showDirectly(_ flap: Int, module id: Int) async throws {
        let frame = RS485Frame.encode(.show(reel.byte(forDrumFlap: flap)), to: .module(id))
        guard let index = ids.firstIndex(of: id) else {
            try await bus.send(frame)
            return
        }
        if let busy = busyUntil[index], busy > clock.now { try await clock.sleep(until: busy, tolerance: nil) }
        // A module with a reel of its own shows the wall's character as its flaps can.
        let flap = reels[index].drum.flap(for: reel.drum.codes[flap]).index
        try await bus.send(RS485Frame.encode(.show(reels[index].byte(forDrumFlap: flap)), to: .module(id)))
        let count = reels[index].drum.count
        let turn = profile(of: index).landings(from: committed[index], flaps: (flap - committed[index] + count) % count).last ?? .zero
        busyUntil[index] = clock.now.advanced(by: turn + Self.settling)
        committed[index] = flap
        estimated[index] = flap
    }

    /// Asks each place's ID for its version: Universal Firmware's modules answer with their
    /// serial numbers at once, and a module known to run v7 answers at its place all the same.
    private func askEachPlace() async throws {
        for index in ids.indices {
            if let busy = busyUntil[index], busy > clock.now { try await clock.sleep(until: busy, tolerance: nil) }
            await bus.discardAnswers()
            try await bus.send(RS485Frame.encodeAnsweredAtOnce(.version(ids: nil), to: .module(ids[index])))
            if case .version(_, _, let serial)? = try await bus.answer(from: ids[index], within: Self.versionWait) {
                numberingState.places[index] = .answers(serial: serial)
                firmwares[index] = .universal
                if let serial { await bus.forgetAnnouncement(serial) }
            } else {
                numberingState.places[index] = firmwares[index] == .v7 ? .answers(serial: nil) : .silent
            }
        }
    }

    /// The numbering as it stands.
    private func numberingNow() async -> ModuleNumbering {
        let columns = info.size.columns
        let places = ids.indices.map { index -> ModuleNumbering.Place in
            var place = ModuleNumbering.Place(row: index / columns + 1, column: index % columns + 1, id: ids[index], answered: false)
            if case .answers(let serial) = numberingState.places[index] {
                place.answered = true
                place.serial = serial
            }
            return place
        }
        let now = clock.now
        let heard = await bus.announced.filter { $0.value.duration(to: now) < Self.announcementsLast }.keys
        let placed = Set(places.compactMap(\.serial))
        let unplaced = Set(heard).union(numberingState.lent.keys).subtracting(placed).sorted()
        return ModuleNumbering(
            panel: info.id, rows: info.size.rows, columns: columns, places: places,
            unplaced: unplaced.map { ModuleNumbering.Module(serial: $0, marked: $0 == numberingState.marked) })
    }
}
