import FlapSetup
import FlapTime
import ServiceLifecycle

/// The board's claim as one of flapd's services: until someone claims it, each setup code is
/// replaced on the board as it ends.
struct SetupService: Service {
    let claim: BoardClaim<ApplianceClock>

    func run() async throws {
        await cancelWhenGracefulShutdown { await claim.run() }
    }
}
