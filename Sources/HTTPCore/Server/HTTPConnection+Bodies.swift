import Logging

extension HTTPConnection {
    // MARK: - streamed bodies

    /// Keeps a `.pull` body moving: while the window has room and no chunk job is out, asks the
    /// worker pool for the next chunks (about a window's worth), then writes what is queued.
    /// Returns true when the body ended (the phase is `.ready` again).
    func pump(_ exchange: Exchange, _ producer: BodyProducer, producing: Bool) -> Bool {
        let drained = flush()
        if closed { return false }
        if !producing, output.unsent < core.highWater {
            var exchange = exchange
            let work = exchange.budget ?? core.makeBudget()
            exchange.budget = work
            phase = .pulling(exchange, producer, producing: true)
            let bytes = max(16 * 1024, core.highWater - output.unsent)
            core.workers.submitContinuation { [self] in
                let batch = work.run { ChunkBatch.produce(producer, bytes: bytes, work: work) }
                loop.execute { [self] in chunksProduced(batch) }
            }
        }
        if !drained { updateReadInterest() }
        return false
    }

    /// Back on the loop with a worker's chunks.
    private func chunksProduced(_ batch: ChunkBatch) {
        loop.assertOnLoop()
        guard !closed, case .pulling(var exchange, let producer, producing: true) = phase else { return }
        if let failure = batch.failure {
            core.logger.error("streamed body failed; closing the connection", metadata: [
                "error": "\(String(reflecting: failure))", "requestId": "\(exchange.requestId)", "peer": "\(peer)",
            ])
            phase = .pulling(exchange, producer, producing: false)
            flush()
            close(streamReason: .serverClosed)
            return
        }
        for chunk in batch.chunks {
            exchange.bodyBytes += chunk.count
            appendChunk(chunk, exchange)
        }
        if batch.ended {
            if exchange.chunked { output.append(ResponseWriter.lastChunk) }
            finishExchange(exchange, bodyBytes: exchange.bodyBytes, completed: true)
            drive()
            return
        }
        phase = .pulling(exchange, producer, producing: false)
        if batch.chunks.isEmpty {
            // A producer with nothing to say right now: come back a little later.
            loop.schedule(afterNanos: 2_000_000) { [self] in
                if !closed { drive() }
            }
            flush()
            return
        }
        drive()
    }

    // MARK: - event streams

    /// Moves queued events to the socket. True when the stream ended and `drive` should go on.
    func serviceStream(_ exchange: Exchange, _ stream: EventStream) -> Bool {
        var exchange = exchange
        let d = stream.drain()
        if d.overflowed {
            dropStream(exchange, stream)
            return false
        }
        if !d.bytes.isEmpty {
            appendChunk(d.bytes, exchange)
            exchange.bodyBytes += d.bytes.count
            lastWriteAt = monotonicNanos()
            phase = .streaming(exchange, stream)
        }
        if d.closeRequested {
            if exchange.chunked { output.append(ResponseWriter.lastChunk) }
            endStream(stream, reason: .closedByApp)
            core.streamClosed()
            finishExchange(exchange, bodyBytes: exchange.bodyBytes, completed: true)
            return true
        }
        let drained = flush()
        if closed { return false }
        if stream.setUnsentOnWire(drained ? 0 : output.unsent) {
            dropStream(exchange, stream)
            return false
        }
        updateReadInterest()
        return false
    }

    func dropStream(_ exchange: Exchange, _ stream: EventStream) {
        core.metrics.droppedStreams.increment()
        core.logger.warning("event stream dropped: the client stopped reading and its queue overflowed", metadata: [
            "peer": "\(peer)", "requestId": "\(exchange.requestId)", "queueLimitBytes": .stringConvertible(stream.queueLimitBytes),
            "unsentBytes": .stringConvertible(output.unsent),
        ])
        close(streamReason: .dropped)
    }

    /// Ends the stream's life as seen by the app (close handlers run once).
    func endStream(_ stream: EventStream, reason: EventStream.CloseReason) {
        for handler in stream.finish(reason) { handler(reason) }
    }

    func eventStreamNeedsService() {
        loop.execute { [self] in
            guard !closed else { return }
            if case .streaming = phase { drive() }
        }
    }

    func shutDownStream(_ stream: EventStream) {
        let handlers = stream.beginShutdown()
        if handlers.isEmpty {
            stream.close()
        } else {
            for h in handlers { h() }
        }
    }
}

/// What one worker job pulled from a body producer.
struct ChunkBatch: Sendable {
    var chunks: [[UInt8]] = []
    var ended = false
    var failure: (any Error)?

    /// Pulls chunks until about `bytes`, the end, an error, a run of empty chunks, or the
    /// request's stop (its CPU budget spent or its client gone: a failure, which cuts the body).
    static func produce(_ producer: BodyProducer, bytes budget: Int, work: WorkBudget) -> ChunkBatch {
        var batch = ChunkBatch()
        var bytes = 0
        var empties = 0
        do {
            while bytes < budget {
                if work.isSpent || work.stopReason != nil { throw work.stopProblem() ?? ProblemDetails(status: .serviceUnavailable) }
                guard let chunk = try producer.nextChunk() else {
                    batch.ended = true
                    break
                }
                if chunk.isEmpty {
                    empties += 1
                    if empties > 64 { break }
                    continue
                }
                batch.chunks.append(chunk)
                bytes += chunk.count
            }
        } catch {
            batch.failure = error
        }
        return batch
    }
}

