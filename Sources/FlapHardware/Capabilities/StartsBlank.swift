/// A panel whose modules find home and start blank each time its driver starts (a directly
/// driven board, an RS-485 wall): what it showed when flapd last stopped is not where its modules
/// are, so it is not resumed from. A capability a panel may have, asked for with `is any StartsBlank`.
public protocol StartsBlank: Panel {}
