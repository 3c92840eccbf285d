extension HTTPConnection {
    /// How a response's body is delimited on the wire.
    enum Framing {
        /// No body (1xx, 204, 304).
        case none
        case contentLength(Int)
        /// Chunked for HTTP/1.1; for HTTP/1.0 the body ends when the connection closes.
        case streamed
    }

    /// Writes the head and, for byte bodies, the body; streamed bodies switch the phase.
    func startResponse(_ response: HTTPResponse, _ exchange: Exchange) {
        loop.assertOnLoop()
        var exchange = exchange
        exchange.status = response.status
        let isHead = exchange.method == .head
        let mayHaveBody = response.status.mayHaveBody
        if core.isDraining { exchange.keepAlive = false }
        switch response.body {
        case .bytes, .encoded:
            let body = response.bodyBytes
            writeHead(response, &exchange, framing: mayHaveBody ? .contentLength(body.count) : .none)
            let sent = isHead || !mayHaveBody ? 0 : body.count
            if sent > 0 {
                var shared = false
                if case .encoded = response.body { shared = true }
                output.appendBody(body, shared: shared)
            }
            finishExchange(exchange, bodyBytes: sent, completed: true)
        case .pull(let producer):
            writeHead(response, &exchange, framing: mayHaveBody ? .streamed : .none)
            if isHead || !mayHaveBody {
                finishExchange(exchange, bodyBytes: 0, completed: true)
            } else {
                phase = .pulling(exchange, producer, producing: false)
                producerBytes = producer.retainedBytes
                account()
            }
        case .eventStream(let setup):
            writeHead(response, &exchange, framing: mayHaveBody ? .streamed : .none)
            if isHead || !mayHaveBody {
                finishExchange(exchange, bodyBytes: 0, completed: true)
            } else {
                let stream = EventStream(request: exchange.request, queueLimitBytes: core.configuration.eventStreamQueueLimit, sink: self,
                                         memory: core.streamMemory)
                phase = .streaming(exchange, stream)
                lastWriteAt = monotonicNanos()
                core.streamOpened()
                setup(stream)
                if draining { shutDownStream(stream) }
            }
        }
    }

    /// The status line, the response's headers, the framing and `Connection` headers, the blank
    /// line: the one place a routed response's head is written (a replay writes the head the
    /// chain made once, through the same `ResponseWriter` pieces).
    private func writeHead(_ response: HTTPResponse, _ exchange: inout Exchange, framing: Framing) {
        output.withTail { out in
            ResponseWriter.appendHead(status: response.status, headers: response.headers, requestId: exchange.requestId, serverHeaderLine: core.serverHeaderLine,
                                      date: loop.httpDate(), to: &out)
            switch framing {
            case .none:
                break
            case .contentLength(let n):
                ResponseWriter.appendContentLength(n, to: &out)
            case .streamed:
                if exchange.http10 {
                    exchange.keepAlive = false
                    exchange.chunked = false
                } else {
                    out.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
                }
            }
            ResponseWriter.appendConnection(keepAlive: exchange.keepAlive, http10: exchange.http10, to: &out)
            out.append(contentsOf: ResponseWriter.crlf)
        }
    }

    /// Sends a replayed answer (Replay.swift): the head the chain made the first time, with
    /// this request's Date, id, length and Connection, and the same body; then the middleware's
    /// per-request work. Nothing is routed, planned or run through the chain.
    func replay(_ entry: ReplayMemo.Entry, _ request: HTTPRequest, requestId: String, keepAlive: Bool, receivedAt: UInt64) {
        let keepAlive = keepAlive && !core.isDraining
        let body = entry.bodyBytes
        output.withTail { out in
            ResponseWriter.appendStatusLine(entry.status, serverHeaderLine: core.serverHeaderLine, date: loop.httpDate(), to: &out)
            out.append(contentsOf: entry.fields)
            ResponseWriter.appendRequestId(requestId, to: &out)
            ResponseWriter.appendContentLength(body.count, to: &out)
            ResponseWriter.appendConnection(keepAlive: keepAlive, http10: request.version == .http1_0, to: &out)
            out.append(contentsOf: ResponseWriter.crlf)
        }
        if !body.isEmpty { output.appendBody(body, shared: entry.sharedBody) }
        if !keepAlive { closeWhenFlushed = true }
        if parser.isReceivingHead { headStartedAt = monotonicNanos() }
        core.metrics.replayed.increment()
        if entry.actions.isEmpty { return }
        let exchange = ReplayedExchange(
            method: request.method, path: entry.path, peer: peer, requestId: requestId, route: entry.route,
            receivedAtNanos: receivedAt, status: entry.status, bodyBytes: body.count
        )
        for action in entry.actions { action(exchange) }
    }

    func finishExchange(_ exchange: Exchange, bodyBytes: Int, completed: Bool) {
        phase = .ready
        if producerBytes != 0 {
            producerBytes = 0
            account()
        }
        if !exchange.keepAlive || core.isDraining { closeWhenFlushed = true }
        if parser.isReceivingHead { headStartedAt = monotonicNanos() }
        exchange.hooks.run(ResponseOutcome(status: exchange.status, bodyBytes: bodyBytes, completed: completed))
    }

    /// One piece of a streamed body, with chunk framing unless the body is close-delimited.
    func appendChunk(_ bytes: [UInt8], _ exchange: Exchange) {
        if exchange.chunked { output.withTail { ResponseWriter.appendChunkHeader(bytes.count, to: &$0) } }
        output.appendBody(bytes, shared: false)
        if exchange.chunked { output.append(ResponseWriter.crlf) }
    }

    // MARK: - writing

    /// Writes as much output as the socket takes. True when everything is written.
    @discardableResult
    func flush() -> Bool {
        let before = output.unsent
        switch output.write(to: fd) {
        case .drained:
            stallSince = 0
            disarmWriteSource()
            account()
            return true
        case .wouldBlock:
            // The stall clock restarts whenever the client takes something.
            if stallSince == 0 || output.unsent < before { stallSince = monotonicNanos() }
            armWriteSource()
            account()
            return false
        case .failed:
            close(streamReason: .clientGone)
            return false
        }
    }

    /// Reports changes in the bytes this connection holds on its own (unsent output it owns, and
    /// what the producer of a pulled body keeps) to the memory budget. (Nothing happens on the
    /// common path: output written at once, nothing held.)
    @inline(__always)
    func account() {
        let owned = output.ownedUnsent + producerBytes
        if owned != accountedBytes {
            core.memory.adjust(by: owned - accountedBytes)
            accountedBytes = owned
        }
    }

    private func armWriteSource() {
        if writeSuspended {
            writeSuspended = false
            applyInterest()
        }
    }

    private func disarmWriteSource() {
        if !writeSuspended {
            writeSuspended = true
            applyInterest()
        }
    }

    func onWritable() {
        loop.assertOnLoop()
        guard !closed else { return }
        if flush() {
            drive()
        } else if !closed {
            if case .streaming(let exchange, let stream) = phase, stream.setUnsentOnWire(output.unsent) {
                dropStream(exchange, stream)
            } else if case .pulling(_, _, producing: false) = phase, output.unsent < core.highWater {
                // Room again in the window: ask for the next chunks.
                drive()
            }
        }
    }
}
