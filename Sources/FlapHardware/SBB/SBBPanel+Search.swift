import FlapCore

/// The modules of an SBB wall found by asking (`DF`): they never announce themselves, so each
/// address of the range the owner gives is asked for its serial number, one at a time, between
/// boards, with how far the search has come kept for whoever asks meanwhile.
extension SBBPanel: FindsModules {
    /// Asks each address from `first` to `last` (0 to 255) for its serial number.
    public func findModules(first: Int, last: Int) async throws(ModuleCommandError) -> ModuleSearch {
        guard (0...255).contains(first), (first...255).contains(last) else {
            throw .invalid("addresses run 0 to 255, the first no later than the last; not \(first) to \(last)")
        }
        guard search?.done != false else {
            throw .busy("a search is under way (\(search.map { "\($0.asked) of \($0.last - $0.first + 1) addresses asked" } ?? ""))")
        }
        search = ModuleSearch(panel: info.id, first: first, last: last)
        await takeTurn()
        defer { endTurn() }
        let columns = info.size.columns
        do {
            _ = try await bus.find(first...last) { address, serial in
                await self.found(address: address, serial: serial, columns: columns)
            }
        } catch {
            search?.problem = "\(error)"
        }
        let answered = Set(search?.found.map(\.address) ?? [])
        search?.silent = addresses.indices.filter { (first...last).contains(addresses[$0]) && !answered.contains(addresses[$0]) }.map {
            SilentPlace(address: addresses[$0], row: $0 / columns + 1, column: $0 % columns + 1)
        }
        search?.done = true
        say(.info, "\(bus.device): asked addresses \(first)–\(last); \(search?.found.count ?? 0) modules answered")
        return search ?? ModuleSearch(panel: info.id, first: first, last: last)
    }

    /// The search under way, or the last one.
    public func moduleSearch() -> ModuleSearch? { search }

    private func found(address: Int, serial: UInt32?, columns: Int) {
        search?.asked += 1
        guard let serial else { return }
        let place = addresses.firstIndex(of: address)
        search?.found.append(
            FoundModule(address: address, serial: Int(serial), row: place.map { $0 / columns + 1 }, column: place.map { $0 % columns + 1 }))
    }
}
