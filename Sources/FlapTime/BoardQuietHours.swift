import FlapCore
import FoundationEssentials

/// A panel's quiet hours: a daily span of local time in which the board does not move for
/// messages (they are accepted and wait), and what it does when the span starts. When it ends
/// the board moves once, to what its policy shows then. A message with `bypassQuietHours`
/// moves it anyway.
public struct BoardQuietHours: Sendable, Equatable {
    /// What the board does as the span starts.
    public enum Action: Sendable, Equatable {
        /// Keep showing what it shows.
        case hold
        /// Go blank, then hold.
        case blank
        /// Show the quick message of this name, then hold.
        case message(String)
        /// LED panels and screens: keep moving, at the brightness their schedule gives the night.
        case dim
    }

    /// The daily span.
    public var hours: QuietHours
    /// What it does as the span starts.
    public var action: Action

    /// Quiet `hours`, doing `action` as they start.
    public init(hours: QuietHours, action: Action) {
        self.hours = hours
        self.action = action
    }

    /// Whether the board holds at `date`.
    public func holds(at date: Date, zone: ZoneRules) -> Bool {
        action != .dim && hours.contains(date, zone: zone)
    }

    /// When the span next starts or ends after `date`.
    public func nextChange(after date: Date, zone: ZoneRules) -> Date {
        hours.nextChange(after: date, zone: zone)
    }

    /// The action as configuration writes it (`quiet = …`).
    public static let actionNames = ["hold", "blank", "message", "dim"]
}
