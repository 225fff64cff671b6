/// A kind's own settings for one thing configured (a HUB75 panel's chain, a BLE sensor's straps),
/// kept as `any` beside what every thing of its sort has, and compared through it.
public protocol KindOptions: Sendable {
    /// Whether `other` is the same settings.
    func isEqual(to other: any KindOptions) -> Bool
}

extension KindOptions where Self: Equatable {
    /// Whether `other` is of this type and equal.
    public func isEqual(to other: any KindOptions) -> Bool { (other as? Self) == self }
}

/// Whether two things' kind settings are the same: both absent, or equal.
public func sameOptions(_ a: (any KindOptions)?, _ b: (any KindOptions)?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let x?, let y?): x.isEqual(to: y)
    default: false
    }
}
