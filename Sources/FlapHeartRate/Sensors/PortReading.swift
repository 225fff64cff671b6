import FlapHardware

/// The loop of a heart-rate source on a port (an ANT stick, a serial sensor): open the device,
/// read it until it fails, report the failure (the source lost with its reason and remedy, and
/// its straps with it), wait with backoff, open it again; until cancelled.
enum PortReading {
    /// `read` reads the open port, calling `connected` once the device is ready (the backoff
    /// starts over from then). `missingRemedy` is said when opening fails without a remedy of
    /// its own; `failure` is why straps are lost when the device fails.
    static func run<C: Clock>(
        device: String, clock: C, missingRemedy: String?, failure: String,
        emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void,
        open: @Sendable () async throws -> any SerialPort,
        read: (any SerialPort, inout StrapStates<C.Instant>, _ connected: () -> Void) async throws -> Void
    ) async where C.Duration == Duration, C.Instant: Sendable {
        var states = StrapStates<C.Instant>()
        var backoff = Backoff()
        emit(.status(HeartRateStatus(strap: nil, .searching)))
        while !Task.isCancelled {
            let port: any SerialPort
            do {
                port = try await open()
            } catch {
                let problem = HardwareError.describing(error, device: device)
                emit(.status(HeartRateStatus(strap: nil, .lost(reason: problem.problem, remedy: problem.remedy ?? missingRemedy))))
                try? await clock.sleep(for: backoff.delay(), tolerance: nil)
                continue
            }
            do {
                try await read(port, &states) {
                    backoff.reset()
                    emit(.status(HeartRateStatus(strap: nil, .connected)))
                }
            } catch is CancellationError {
            } catch {
                let problem = HardwareError.describing(error, device: device)
                emit(.status(HeartRateStatus(strap: nil, .lost(reason: problem.problem, remedy: problem.remedy))))
                for status in states.loseAll(reason: failure, remedy: problem.remedy) { emit(.status(status)) }
                try? await clock.sleep(for: backoff.delay(), tolerance: nil)
            }
            await port.close()
        }
    }
}
