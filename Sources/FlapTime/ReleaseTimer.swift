import FlapMessaging
import FoundationEssentials
import Logging

/// Gives messages sent for later their slots when their instant comes: wakes at the soonest
/// `notBefore` in the inbox (re-reading it whenever a message is sent for later, released or
/// cancelled, and at least once a minute, so a wall clock set forward or back is noticed) and
/// releases every message then due. A message whose instant passed while flapd was off is
/// released at once. While the clock cannot be trusted (``ClockTrust``) nothing is released:
/// the check repeats every few seconds until it can.
public actor ReleaseTimer<C: Clock> where C.Duration == Duration {
    private let inbox: Inbox
    private let time: ServiceTime<C>
    private let logger: Logger
    private let trust: @Sendable () -> ClockVerdict
    /// Whether messages are held for an untrusted clock (said once in the log).
    private var holding = false
    private let alarm: Alarm<C>

    /// The longest the timer sleeps before looking at the wall clock again.
    public static var longestSleep: Duration { .seconds(60) }
    /// How often a held release looks at the clock's trust again.
    public static var trustRecheck: Duration { .seconds(5) }

    /// Releases `inbox`'s messages for later as their instants come, while `trust` says the clock may be believed.
    public init(inbox: Inbox, time: ServiceTime<C>, trust: @escaping @Sendable () -> ClockVerdict, logger: Logger) {
        self.inbox = inbox
        self.trust = trust
        alarm = Alarm(clock: time.clock)
        self.time = time
        self.logger = logger
    }

    /// Runs until cancelled.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [inbox, alarm] in
                for await _ in inbox.scheduleChanges { alarm.poke() }
            }
            await check()
            for await _ in alarm.wakeups {
                if Task.isCancelled { break }
                await check()
            }
            group.cancelAll()
        }
        await alarm.stop()
    }

    private func check() async {
        do {
            if let due = try await inbox.nextRelease(), due <= time.now() {
                let verdict = trust()
                guard verdict.trusted else {
                    if !holding {
                        logger.notice("messages sent for later are held: the clock cannot be trusted yet", metadata: ["reason": "\(verdict.reason)"])
                    }
                    holding = true
                    return await alarm.arm(time.clock.now.advanced(by: Self.trustRecheck))
                }
                if holding { logger.notice("the clock can be trusted: releasing messages sent for later", metadata: ["reason": "\(verdict.reason)"]) }
                holding = false
                let released = try await inbox.release(now: time.now())
                if released > 0 { logger.info("messages sent for later are due", metadata: ["released": "\(released)"]) }
            }
            if let next = try await inbox.nextRelease() {
                await alarm.arm(min(time.instant(at: next), time.clock.now.advanced(by: Self.longestSleep)))
            }
        } catch {
            logger.error("could not release messages sent for later", metadata: ["error": "\(error)"])
        }
    }
}
