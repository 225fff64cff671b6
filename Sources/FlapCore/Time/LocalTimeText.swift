import FoundationEssentials

extension ZoneRules {
    /// `date` on this zone's wall clock as 2026-11-24 15:46 (or 15:46:07 with `seconds`):
    /// unambiguous in any language, and needing no locale data.
    public func text(_ date: Date, seconds: Bool = false, withDate: Bool = true) -> String {
        let wall = self.wall(at: date)
        let day = wall.floorDivided(by: 86400)
        let civil = CivilDate(day: day)
        let secondOfDay = Int(wall - day * 86400)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        var text = withDate ? "\(civil.year)-\(two(civil.month))-\(two(civil.day)) " : ""
        text += "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60))"
        if seconds { text += ":\(two(secondOfDay % 60))" }
        return text
    }
}
