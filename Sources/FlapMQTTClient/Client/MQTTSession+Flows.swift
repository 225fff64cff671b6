import NIOCore

/// The message flows: what arrives from the broker, what goes to it, and stopping.
extension MQTTSession {
    func receive(_ packet: MQTTPacket, at received: ContinuousClock.Instant) throws(MQTTProtocolError) {
        if case .connack(let connack) = packet {
            guard case .awaitingConnack = state else { throw .violation("a second CONNACK") }
            return accepted(connack)
        }
        guard case .connected = state else { throw .violation("\(packet.typeName) before CONNACK") }
        switch packet {
        case .publish(let publish): try incoming(publish, at: received)
        case .puback(let ack): try completed(ack.packetID, expecting: 1, released: false, ack.code)
        case .pubrec(let ack):
            guard var outgoing = inflight[ack.packetID], outgoing.publish.qos == 2, !outgoing.released else {
                throw .violation("PUBREC for packet \(ack.packetID), which is not a QoS 2 message in flight")
            }
            if ack.code >= 0x80 { return try completed(ack.packetID, expecting: 2, released: false, ack.code) }
            outgoing.released = true
            inflight[ack.packetID] = outgoing
            write(.pubrel(.init(packetID: ack.packetID)))
        case .pubcomp(let ack): try completed(ack.packetID, expecting: 2, released: true, ack.code)
        case .pubrel(let ack):
            // Answered whether or not it is known: after a restart the broker may release what
            // an earlier process received.
            let known = awaitingRelease.remove(ack.packetID) != nil
            write(.pubcomp(.init(packetID: ack.packetID, code: known || level == .v311 ? 0 : 0x92)))
        case .suback: break  // a refused filter simply delivers nothing
        case .pingresp: pingSent = nil
        case .disconnect(let d):
            let reason = d.properties.string(MQTTProperty.reasonString).map { ": \($0)" } ?? ""
            throw MQTTProtocolError(description: "the broker disconnected (reason 0x\(String(d.code, radix: 16))\(reason))", code: 0)
        case .connect, .connack, .subscribe, .pingreq:
            throw .violation("\(packet.typeName), which a broker does not send")
        }
    }

    private func incoming(_ publish: MQTTPacket.Publish, at received: ContinuousClock.Instant) throws(MQTTProtocolError) {
        guard publish.properties.integer(MQTTProperty.topicAlias) == nil else {
            throw .violation("PUBLISH with a topic alias, which this client never allowed")
        }
        guard !publish.topic.isEmpty else { throw .violation("PUBLISH with an empty topic and no alias") }
        var token: MQTTAcknowledgement?
        if let id = publish.packetID {
            // Neither of these will be acknowledged through the queue: the read gate counted
            // them, and must not keep counting them, or reading would stay held back.
            if publish.qos == 2, awaitingRelease.contains(id) {
                // Ours already (PUBREC sent): the broker missed the PUBREC.
                gate?.acknowledged(1)
                return write(.pubrec(.init(packetID: id)))
            }
            if unacknowledged.contains(id) {  // a resend of one not yet acknowledged
                gate?.acknowledged(1)
                return
            }
            // Beyond our Receive Maximum is taken all the same: mosquitto 2.0.11 restored from its
            // persistence file sends a resumed session's whole queue at once, and refusing it
            // would only reconnect for ever.
            unacknowledged.append(MQTTIncoming(packetID: id, qos: publish.qos, received: received, acknowledged: !options.manualAcknowledgement))
            if options.manualAcknowledgement { token = MQTTAcknowledgement(connection: connection, packetID: id) } else { sendAcknowledgements() }
        }
        var message = MQTTMessage(
            topic: publish.topic, payload: publish.payload, qos: Int(publish.qos), retained: publish.retain,
            duplicate: publish.duplicate, received: received, acknowledgement: token)
        message.oversizedPayload = publish.oversized
        events.yield(.message(message))
    }

    func acknowledge(_ token: MQTTAcknowledgement) {
        // From a connection that is gone: the broker will deliver it again.
        guard token.connection == connection, unacknowledged.acknowledge(token.packetID) else { return }
        sendAcknowledgements()
    }

    /// PUBACK or PUBREC for the acknowledged messages at the front, in the order they arrived
    /// (as MQTT requires).
    private func sendAcknowledgements() {
        let now = ContinuousClock.now
        var sent = 0
        defer { if sent > 0 { gate?.acknowledged(sent) } }
        while let first = unacknowledged.popAcknowledged() {
            sent += 1
            if first.qos == 1 {
                write(.puback(.init(packetID: first.packetID)))
            } else {
                write(.pubrec(.init(packetID: first.packetID)))
                awaitingRelease.insert(first.packetID)
            }
            options.onAcknowledged?(first.received.duration(to: now))
        }
    }

    // MARK: To the broker

    func enqueue(_ outgoing: MQTTOutgoing) {
        guard stopping == nil else {
            queued.release(1)
            outgoing.waiter?.resume(throwing: MQTTError("the MQTT client is stopping", code: .stopped))
            return
        }
        outbox.append(outgoing)
        drainOutbox()
    }

    /// Sends queued messages while connected and the broker's Receive Maximum allows.
    func drainOutbox() {
        guard case .connected = state else { return }
        while let next = outbox.first, next.publish.qos == 0 || inflight.count < sendQuota {
            var outgoing = outbox.removeFirst()
            if outgoing.publish.qos == 0 {
                write(.publish(outgoing.publish))
                queued.release(1)
                outgoing.waiter?.resume()
                continue
            }
            let id = allocatePacketID()
            outgoing.publish.packetID = id
            inflight[id] = outgoing
            inflightOrder.append(id)
            write(.publish(outgoing.publish))
        }
    }

    /// After a reconnection: what was in flight goes again, in order (PUBLISH with DUP, or the
    /// PUBREL), when the broker kept the session; otherwise it goes again as new messages.
    func resend(sessionPresent: Bool) {
        let order = inflightOrder.filter { inflight[$0] != nil }
        inflightOrder = order
        guard sessionPresent else {
            for id in order.reversed() {
                guard var outgoing = inflight.removeValue(forKey: id) else { continue }
                outgoing.publish.packetID = nil
                outgoing.released = false
                if outgoing.publish.qos > 0 { outbox.prepend(outgoing) }
            }
            inflight = inflight.filter { $0.value.publish.qos == 0 }
            inflightOrder = []
            return
        }
        for id in order {
            guard var outgoing = inflight[id] else { continue }
            if outgoing.released {
                write(.pubrel(.init(packetID: id)))
            } else {
                outgoing.publish.duplicate = true
                write(.publish(outgoing.publish))
            }
        }
    }

    private func completed(_ id: UInt16, expecting qos: UInt8, released: Bool, _ code: UInt8) throws(MQTTProtocolError) {
        guard let outgoing = inflight[id], outgoing.publish.qos == qos, outgoing.released == released else {
            throw .violation("an acknowledgement for packet \(id), which is not in flight at that stage")
        }
        inflight[id] = nil
        if inflightOrder.first == id { inflightOrder.removeFirst() }
        if inflightOrder.count > 2 * inflight.count + 64 { inflightOrder = inflightOrder.filter { inflight[$0] != nil } }
        queued.release(1)
        if code >= 0x80 {
            outgoing.waiter?.resume(
                throwing: MQTTError(
                    "the broker refused the message to \(outgoing.publish.topic) (reason 0x\(String(code, radix: 16)))", code: .refused))
        } else {
            outgoing.waiter?.resume()
        }
        drainOutbox()
        if stopping != nil, outbox.isEmpty, inflight.isEmpty { stopNow() }
    }

    func allocatePacketID() -> UInt16 {
        repeat {
            nextPacketID = nextPacketID == .max ? 1 : nextPacketID + 1
        } while inflight[nextPacketID] != nil
        return nextPacketID
    }

    /// Encodes `packet` for the connection; everything written before the next flush input
    /// leaves in one write.
    func write(_ packet: MQTTPacket) {
        guard channel != nil else { return }
        packet.encode(into: &out, level: level)
        if !flushScheduled {
            flushScheduled = true
            input.yield(.flush(connection))
        }
    }

    func flush() {
        guard let channel, out.readableBytes > 0 else { return }
        channel.writeAndFlush(out, promise: nil)
        out = channel.allocator.buffer(capacity: 1024)
        lastSent = clock.now
    }

    // MARK: Stopping

    func stop(within: Duration?, done: CheckedContinuation<Void, Never>?) {
        stopping = (stopping ?? []) + (done.map { [$0] } ?? [])
        if let within, !(outbox.isEmpty && inflight.isEmpty) {
            // Keep (re)connecting until the broker has everything or the time is up.
            let input = input
            stopDeadline =
                stopDeadline
                ?? Task { [clock] in
                    guard (try? await clock.sleep(for: within)) != nil else { return }
                    input.yield(.stop(flushWithin: nil, done: nil))
                }
            return
        }
        stopNow()
    }

    /// Says goodbye (DISCONNECT, so the broker does not publish the will) and closes.
    func stopNow() {
        guard let channel else { return finishStopping() }
        if case .connected = state { write(.disconnect(.init())) }
        let last = out
        out.clear()
        channel.writeAndFlush(last).whenComplete { _ in channel.close(promise: nil) }
        self.channel = nil
        finishStopping()
    }

    func finishStopping() {
        state = .stopped
        let failed = MQTTError("the MQTT client stopped before the broker acknowledged the message", code: .stopped)
        for outgoing in outbox { outgoing.waiter?.resume(throwing: failed) }
        for outgoing in inflight.values { outgoing.waiter?.resume(throwing: failed) }
        queued.release(outbox.count + inflight.count)
        outbox.removeAll()
        inflight.removeAll()
        for caller in stopping ?? [] { caller.resume() }
        stopping = nil
    }
}
