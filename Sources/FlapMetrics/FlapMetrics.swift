import FoundationEssentials
import Prometheus
import Synchronization

/// What flapd counts and times, exposed at `/metrics` in Prometheus text format.
///
/// - `flapd_messages_accepted_total{source}`, `flapd_messages_rejected_total{source,reason}`
/// - `flapd_flaps_moved_total{panel}`
/// - `flapd_plan_latency_seconds`: message accepted → its plan starts on a panel
/// - `flapd_display_latency_seconds`: message accepted → the panel rests showing it
/// - `flapd_panel_connected{panel}` (1 or 0), `flapd_module_faults{panel}`: modules needing attention
/// - `flapd_source_looks_total{source,outcome}`, `flapd_source_failing{source}`,
///   `flapd_source_updated_timestamp_seconds{source}` (its age is `time() - ` that)
/// - `flapd_heart_rate_samples_total{sensor}`, `flapd_heart_rate_sensor_connected{sensor}`,
///   `flapd_heart_rate_straps{sensor,state}`: counts only; a heart rate is never a value or a label
public final class FlapMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let planLatency: DurationHistogram
    private let mqttAcknowledgement: DurationHistogram
    private let displayLatency: DurationHistogram
    private let pending = PendingLatencies()

    /// Metrics that start at zero.
    public init() {
        let fast: [Duration] = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1)
        ]
        planLatency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "plan_latency", unitName: "seconds",
                helpText: "Time from a message being accepted to its plan starting on a panel."), buckets: fast)
        mqttAcknowledgement = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "mqtt_ack_delay", unitName: "seconds",
                helpText:
                    "Time from a QoS 1 or 2 message's arrival to its acknowledgement (PUBACK or PUBREC), which leaves only after the message is committed or refused."
            ),
            buckets: [
                .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(30),
                .milliseconds(40), .milliseconds(50), .milliseconds(75), .milliseconds(100), .milliseconds(250), .seconds(1)
            ])
        displayLatency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "display_latency", unitName: "seconds",
                helpText: "Time from a message being accepted to a panel resting on it."),
            buckets: [.seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(20), .seconds(30), .seconds(60), .seconds(300)])
    }

    /// A message from `source` was committed to the inbox (not a duplicate).
    public func accepted(id: String, source: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "messages_accepted", unitName: "total", helpText: "Messages committed to the inbox."),
            labels: [("source", source)]
        ).increment()
        pending.start(id)
    }

    /// A message from `source` was refused; `reason` is one of invalid, refused, rate_limited,
    /// too_large, unsupported_type, forbidden, idempotency_key_reused (`RejectionReason`).
    public func rejected(source: String, reason: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "messages_rejected", unitName: "total", helpText: "Messages refused before reaching the inbox."),
            labels: [("source", source), ("reason", reason)]
        ).increment()
    }

    /// An MQTT message was acknowledged this long after it arrived (after its commit).
    public func mqttAcknowledged(after delay: Duration) { mqttAcknowledgement.record(delay) }

    /// Counts a plan that started (a message's, when it has an id).
    public func planStarted(messageId: String?) {
        if let messageId, let elapsed = pending.elapsed(messageId, remove: false) { planLatency.record(elapsed) }
    }

    /// Counts a board shown on `panel` and the `flaps` it took.
    public func displayed(messageId: String?, panel: String, flaps: Int) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "flaps_moved", unitName: "total", helpText: "Flaps landed on each panel."), labels: [("panel", panel)]
        )
        .increment(by: Int64(flaps))
        if let messageId, let elapsed = pending.elapsed(messageId, remove: true) { displayLatency.record(elapsed) }
    }

    /// A panel's device answers (or not), with `faults` modules needing attention.
    public func panelHealth(panel: String, connected: Bool, faults: Int) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "panel_connected", unitName: "", helpText: "1 when the panel's device answers."),
            labels: [("panel", panel)]
        ).set(Double(connected ? 1 : 0))
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "module_faults", unitName: "", helpText: "Modules in sensor error, panic or disabled."),
            labels: [("panel", panel)]
        ).set(Double(faults))
    }

    /// A source was looked at: `outcome` is changed, unchanged (a 304, or a file as it was),
    /// failed or pushed; `updated` is when its content last arrived, if it did now.
    public func sourceLooked(source: String, outcome: String, updated: Date?) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "source_looks", unitName: "total", helpText: "Looks at each content source, by outcome."),
            labels: [("source", source), ("outcome", outcome)]
        ).increment()
        let failing = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "source_failing", unitName: "", helpText: "1 while a content source's last look failed."),
            labels: [("source", source)])
        failing.set(outcome == "failed" ? 1.0 : 0.0)
        if let updated {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "flapd", metricName: "source_updated", unitName: "timestamp_seconds",
                    helpText: "When a content source's content last arrived or was confirmed (Unix time)."),
                labels: [("source", source)]
            ).set(updated.timeIntervalSince1970)
        }
    }

    /// A heart-rate reading arrived from `sensor` (`ble hci0`); its value is not recorded.
    public func heartRateSample(sensor: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "heart_rate_samples", unitName: "total",
                helpText: "Heart-rate readings received (counted, never kept)."),
            labels: [("sensor", sensor)]
        ).increment()
    }

    /// A heart-rate source's adapter, stick or port is usable (or not).
    public func heartRateSensor(sensor: String, connected: Bool) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "heart_rate_sensor_connected", unitName: "",
                helpText: "1 when the heart-rate source's device is usable."),
            labels: [("sensor", sensor)]
        ).set(Double(connected ? 1 : 0))
    }

    /// How many straps of `sensor` are in each state (searching, connected, no-contact, lost).
    public func heartRateStraps(sensor: String, byState counts: [String: Int]) {
        for state in ["searching", "connected", "no-contact", "lost"] {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "flapd", metricName: "heart_rate_straps", unitName: "", helpText: "Straps a heart-rate source follows, by state."),
                labels: [("sensor", sensor), ("state", state)]
            ).set(Double(counts[state] ?? 0))
        }
    }

    /// The Prometheus text exposition.
    /// A write to a real Vestaboard ended (`sent`, `failed`, `superseded`, `conflict`).
    public func boardWrite(panel: String, state: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "vestaboard_writes", unitName: "total", helpText: "Writes to real Vestaboards, by how they ended."),
            labels: [("panel", panel), ("state", state)]
        ).increment()
    }

    /// Writes waiting for a real Vestaboard.
    public func boardQueue(panel: String, depth: Int) {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "flapd", metricName: "vestaboard_queue_depth", unitName: "", helpText: "Writes waiting for a real Vestaboard."),
            labels: [("panel", panel)]
        ).set(Double(depth))
    }

    /// Everything in Prometheus' text format.
    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

/// When each message was accepted, until it is displayed (bounded: the oldest are forgotten).
/// Constant time per message: a shift of the whole list, or a scan of it by id, cost more than
/// the rest of the bookkeeping under a burst.
private final class PendingLatencies: Sendable {
    private struct State {
        var started: [String: (at: ContinuousClock.Instant, order: Int)] = [:]
        /// Ids in acceptance order, each with the order number it had then (a later entry for the
        /// same id makes an earlier one stale).
        var order: [(id: String, order: Int)] = []
        var head = 0
        var next = 0

        mutating func start(_ id: String, limit: Int) {
            while started.count >= limit, head < order.count {
                let oldest = order[head]
                head += 1
                if started[oldest.id]?.order == oldest.order { started[oldest.id] = nil }
            }
            // Entries already gone (displayed) at the front, then, now and then, the whole list
            // rebuilt from the live ones: it stays within twice the limit however they leave.
            while head < order.count, started[order[head].id]?.order != order[head].order { head += 1 }
            if order.count - head > 2 * limit {
                order = started.map { ($0.key, $0.value.order) }.sorted { $0.order < $1.order }
                head = 0
            } else if head > limit {
                order.removeFirst(head)
                head = 0
            }
            next += 1
            started[id] = (.now, next)
            order.append((id, next))
        }
    }

    private let state = Mutex(State())
    /// A message still waiting behind a thousand newer ones tells nothing about latency.
    private let limit = 1_000

    func start(_ id: String) {
        state.withLock { $0.start(id, limit: limit) }
    }

    func elapsed(_ id: String, remove: Bool) -> Duration? {
        state.withLock {
            guard let start = $0.started[id] else { return nil }
            if remove { $0.started[id] = nil }
            return start.at.duration(to: .now)
        }
    }
}
