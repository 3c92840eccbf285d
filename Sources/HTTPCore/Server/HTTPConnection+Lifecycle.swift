extension HTTPConnection {
    // MARK: - timers (called by the loop's tick)

    func tick(_ now: UInt64) {
        guard !closed else { return }
        if stallSince != 0 {
            // The client stopped taking what we send; sooner while response memory is short.
            let limit = core.memory.isOverLimit ? core.pressureWriteStallNanos : core.writeStallNanos
            if limit > 0, now &- stallSince > limit {
                core.metrics.timeouts.increment(labels: ["write"])
                close(streamReason: .clientGone)
                return
            }
        }
        let idle = core.idleTimeoutNanos
        switch phase {
        case .lingering:
            if now >= lingerDeadline { close(streamReason: .clientGone) }
        case .ready:
            if closeWhenFlushed { return }
            if headStartedAt != 0, parser.isReceivingHead, core.headerTimeoutNanos > 0, now &- headStartedAt > core.headerTimeoutNanos {
                core.metrics.timeouts.increment(labels: ["header"])
                writeFinal(ProblemDetails(status: .requestTimeout, detail: "the request head did not arrive within \(core.configuration.headerReadTimeout) s"))
                drive()
            } else if parser.isMidRequest, !parser.isReceivingHead, idle > 0, now &- lastActivity > idle {
                core.metrics.timeouts.increment(labels: ["body"])
                writeFinal(ProblemDetails(status: .requestTimeout, detail: "the request body stalled for \(core.configuration.idleTimeout) s"))
                drive()
            } else if !parser.isMidRequest, output.isEmpty, idle > 0, now &- lastActivity > idle {
                core.metrics.timeouts.increment(labels: ["idle"])
                close(streamReason: .clientGone)
            }
        case .streaming(let exchange, _):
            if core.heartbeatNanos > 0, now &- lastWriteAt >= core.heartbeatNanos {
                appendChunk(ResponseWriter.heartbeat, exchange)
                lastWriteAt = now
                drive()
            }
        case .awaiting, .pulling:
            break
        }
    }

    // MARK: - shutdown and close

    /// Server shutdown: idle connections and connections holding only part of a request close
    /// now; a request being answered finishes (with `Connection: close`); streams are asked to end.
    func beginDrain() {
        loop.assertOnLoop()
        guard !closed else { return }
        draining = true
        switch phase {
        case .ready:
            if output.isEmpty, !closeWhenFlushed { close(streamReason: .serverClosed) }
        case .streaming(_, let stream):
            shutDownStream(stream)
        default:
            break
        }
    }

    /// After the final response: half-close, then read and discard until the client closes (or
    /// 2 s pass), so unread request bytes cannot turn our close into a reset that destroys the
    /// response before the client reads it.
    func beginLingeringClose() {
        guard !closed else { return }
        if inputClosed {
            close(streamReason: .clientGone)
            return
        }
        Socket.shutdownOutput(fd)
        phase = .lingering
        lingerDeadline = monotonicNanos() &+ 2_000_000_000
        updateReadInterest()
    }
}
