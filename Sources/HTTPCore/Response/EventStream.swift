import Synchronization

/// The connection side of an event stream: told when the app has queued output or asked to close.
protocol EventStreamSink: AnyObject, Sendable {
    func eventStreamNeedsService()
}

/// A server-sent-events stream handed to the app by `.eventStream { stream in … }`. Thread-safe:
/// call it from timers on any queue. Each `send` formats one event and, when the client keeps
/// up, costs one write. The queue in front of a slow client is bounded: when it overflows the
/// stream is dropped (connection closed, warning logged, `http_sse_streams_dropped_total`
/// counted) instead of buffering forever.
///
/// ```swift
/// return .eventStream { stream in
///     let timer = makeTimer { stream.send(event: "telemetry", id: "\(ms)", data: json) }
///     stream.onClose { timer.cancel() }
///     stream.onShutdown { stream.send(event: "end", data: "{}"); stream.close() }
/// }
/// ```
public final class EventStream: Sendable {
    public enum State: Sendable, Equatable {
        case open
        /// `close()` was called: queued events are flushed, then the stream ends.
        case closing
        case closed
    }

    /// Why the stream ended, as reported to `onClose` handlers.
    public enum CloseReason: Sendable, Equatable {
        /// The app called `close()`.
        case closedByApp
        /// The client disconnected or a write failed.
        case clientGone
        /// The client stopped reading and the bounded queue overflowed.
        case dropped
        /// The server closed it (shutdown deadline or server stop).
        case serverClosed
    }

    /// The request that opened the stream (for `Last-Event-ID`).
    public let request: HTTPRequest
    public let queueLimitBytes: Int
    /// Where all the server's streams count what they hold (nil: a detached stream).
    let memory: EventStreamMemory?

    private struct Shared {
        var pending: [UInt8] = []
        var unsentOnWire = 0
        var state: State = .open
        var overflowed = false
        var serviceScheduled = false
        var shuttingDown = false
        var closeHandlers: [@Sendable (CloseReason) -> Void] = []
        var shutdownHandlers: [@Sendable () -> Void] = []
        var endReason: CloseReason?
        var sink: EventStreamSink?
        /// `pending.count + unsentOnWire` as last reported to `memory`.
        var reported = 0
        /// Dropped for the total (``EventStreamMemory``) or ended: reports nothing more.
        var countedOut = false

        /// The change of what the stream holds since it was last reported.
        mutating func unreported() -> Int {
            guard !countedOut else { return 0 }
            let now = state == .closed ? 0 : pending.count + unsentOnWire
            defer { reported = now }
            return now - reported
        }
    }

    private let shared: Mutex<Shared>

    init(request: HTTPRequest, queueLimitBytes: Int, sink: EventStreamSink?, memory: EventStreamMemory? = nil) {
        self.request = request
        self.queueLimitBytes = queueLimitBytes
        self.memory = memory
        shared = Mutex(Shared(sink: sink))
        memory?.register(self)
    }

    /// What this stream counts in ``EventStreamMemory``'s total.
    var heldBytes: Int { shared.withLock { $0.countedOut ? 0 : $0.reported } }

    /// Leaves ``EventStreamMemory``'s total: returns what it counted there, and reports nothing
    /// more.
    func countOut() -> Int {
        shared.withLock { s in
            guard !s.countedOut else { return 0 }
            s.countedOut = true
            return s.reported
        }
    }

    /// Reports what the stream holds now to the server's total; drops the stream the total
    /// names (possibly this one) when it is over its limit.
    private func report(_ delta: Int) {
        guard let memory, delta != 0, let victim = memory.adjust(self, by: delta) else { return }
        victim.overflowForMemory()
    }

    /// Dropped because all the streams together hold too much and this one holds the most.
    func overflowForMemory() {
        let sink: EventStreamSink? = shared.withLock { s in
            guard s.state == .open || s.state == .closing else { return nil }
            s.overflowed = true
            s.state = .closing
            defer { s.serviceScheduled = true }
            return s.serviceScheduled ? nil : s.sink
        }
        sink?.eventStreamNeedsService()
    }

    /// A stream not attached to a connection, for unit tests of code that drives streams: its
    /// output accumulates and can be read with `takeQueuedOutput()`.
    public static func detached(request: HTTPRequest, queueLimitBytes: Int = 1 << 20) -> EventStream {
        EventStream(request: request, queueLimitBytes: queueLimitBytes, sink: nil)
    }

    /// `Last-Event-ID` sent by a reconnecting client.
    public var lastEventID: String? { request.headers["last-event-id"] }

    public var state: State { shared.withLock { $0.state } }
    /// True while a quarter of the queue bound or more waits for the client (queued here or
    /// unsent on its socket): a stream of samples can skip one rather than queue it behind
    /// the others (``MissionReplay`` skips telemetry, never mission events).
    public var isBehind: Bool { shared.withLock { $0.pending.count + $0.unsentOnWire >= queueLimitBytes / 4 } }
    public var isOpen: Bool { state == .open }
    /// True once the server has asked the stream to end (shutdown).
    public var isShuttingDown: Bool { shared.withLock { $0.shuttingDown } }

    /// Queues one event. `data` is split on newlines into several `data:` lines; `event` and `id`
    /// lose any CR/LF. Returns false when the stream is no longer open (or just overflowed).
    @discardableResult
    public func send(event: String? = nil, id: String? = nil, data: String, retry: Int? = nil) -> Bool {
        enqueue(EventStream.format(event: event, id: id, data: data, retry: retry))
    }

    /// Queues an event formatted once for many streams (see ``FormattedEvent``).
    @discardableResult
    public func send(_ event: FormattedEvent) -> Bool {
        enqueue(event.bytes)
    }

    /// Sends only a `retry:` field (reconnection delay in milliseconds).
    @discardableResult
    public func send(retry milliseconds: Int) -> Bool {
        enqueue(Array("retry: \(max(0, milliseconds))\n\n".utf8))
    }

    /// Queues a comment line (`: text`), which clients ignore; heartbeats are comments.
    @discardableResult
    public func comment(_ text: String) -> Bool {
        enqueue(EventStream.formatComment(text))
    }

    /// Flushes what is queued, then ends the stream (the terminating chunk is sent and the
    /// connection may serve further requests).
    public func close() {
        let sink: EventStreamSink? = shared.withLock { s in
            guard s.state == .open else { return nil }
            s.state = .closing
            defer { s.serviceScheduled = true }
            return s.serviceScheduled ? nil : s.sink
        }
        sink?.eventStreamNeedsService()
    }

    /// Called once when the stream ends for any reason (immediately if it already has).
    public func onClose(_ handler: @escaping @Sendable (CloseReason) -> Void) {
        let runNow: CloseReason? = shared.withLock { s in
            if let r = s.endReason { return r }
            s.closeHandlers.append(handler)
            return nil
        }
        if let r = runNow { handler(r) }
    }

    /// Called when the server shuts down: send a final event and `close()`. Without a shutdown
    /// handler the server closes the stream itself.
    public func onShutdown(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = shared.withLock { s in
            if s.shuttingDown { return s.state == .open }
            s.shutdownHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// For detached streams: the bytes queued so far (removed from the queue).
    public func takeQueuedOutput() -> [UInt8] {
        shared.withLock { s in
            defer { s.pending = [] }
            return s.pending
        }
    }

    private func enqueue(_ bytes: [UInt8]) -> Bool {
        var schedule: EventStreamSink?
        var delta = 0
        let accepted: Bool = shared.withLock { s in
            guard s.state == .open else { return false }
            if s.pending.count + s.unsentOnWire + bytes.count > queueLimitBytes {
                s.overflowed = true
                s.state = .closing
            } else if s.pending.isEmpty {
                // The usual case (the client keeps up): no copy, the event's buffer is shared.
                s.pending = bytes
            } else {
                s.pending.append(contentsOf: bytes)
            }
            if !s.serviceScheduled {
                s.serviceScheduled = true
                schedule = s.sink
            }
            delta = s.unreported()
            return !s.overflowed
        }
        report(delta)
        schedule?.eventStreamNeedsService()
        return accepted
    }

    // MARK: connection side (called on the connection's queue)

    struct Drain {
        var bytes: [UInt8]
        var closeRequested: Bool
        var overflowed: Bool
    }

    /// Takes the queued bytes and the close/overflow flags (the bytes then count as unsent on
    /// the wire, reported with `setUnsentOnWire`).
    func drain() -> Drain {
        shared.withLock { s in
            s.serviceScheduled = false
            let d = Drain(bytes: s.pending, closeRequested: s.state == .closing, overflowed: s.overflowed)
            s.unsentOnWire += s.pending.count
            s.pending = []
            return d
        }
    }

    /// The connection's unsent output, counted against the queue bound and the server's total.
    func setUnsentOnWire(_ n: Int) -> Bool {
        var delta = 0
        let overflowed: Bool = shared.withLock { s in
            s.unsentOnWire = n
            defer { delta = s.unreported() }
            if n + s.pending.count > queueLimitBytes, s.state == .open {
                s.overflowed = true
                s.state = .closing
                return true
            }
            return s.overflowed
        }
        report(delta)
        return overflowed
    }

    /// Ends the stream and returns the close handlers to run (outside the lock).
    func finish(_ reason: CloseReason) -> [@Sendable (CloseReason) -> Void] {
        let handlers: [@Sendable (CloseReason) -> Void] = shared.withLock { s in
            guard s.endReason == nil else { return [] }
            s.endReason = reason
            s.state = .closed
            s.pending = []
            s.sink = nil
            let handlers = s.closeHandlers
            s.closeHandlers = []
            s.shutdownHandlers = []
            return handlers
        }
        memory?.remove(self, bytes: countOut())
        return handlers
    }

    /// Marks shutdown; returns the handlers to run (empty: the server should close the stream).
    func beginShutdown() -> [@Sendable () -> Void] {
        shared.withLock { s in
            s.shuttingDown = true
            let h = s.shutdownHandlers
            s.shutdownHandlers = []
            return h
        }
    }

    // MARK: wire format

    static func format(event: String?, id: String?, data: String, retry: Int?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.utf8.count + 48)
        if let event {
            out.append(contentsOf: "event: ".utf8)
            appendSingleLine(event, to: &out)
            out.append(0x0A)
        }
        if let id {
            out.append(contentsOf: "id: ".utf8)
            appendSingleLine(id, to: &out)
            out.append(0x0A)
        }
        if let retry {
            out.append(contentsOf: "retry: \(max(0, retry))\n".utf8)
        }
        // data split on CRLF, CR or LF; each line its own `data:` field.
        out.append(contentsOf: "data: ".utf8)
        // One line (JSON as the API writes it): copied whole.
        if !data.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
            out.append(contentsOf: data.utf8)
            out.append(contentsOf: "\n\n".utf8)
            return out
        }
        var previousCR = false
        for b in data.utf8 {
            if b == 0x0A {
                if previousCR { previousCR = false; continue }
                out.append(contentsOf: "\ndata: ".utf8)
            } else if b == 0x0D {
                previousCR = true
                out.append(contentsOf: "\ndata: ".utf8)
            } else {
                previousCR = false
                out.append(b == 0 ? 0x20 : b)
            }
        }
        out.append(contentsOf: "\n\n".utf8)
        return out
    }

    static func formatComment(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: ":")]
        if !text.isEmpty {
            out.append(0x20)
            appendSingleLine(text, to: &out)
        }
        out.append(contentsOf: "\n\n".utf8)
        return out
    }

    private static func appendSingleLine(_ s: String, to out: inout [UInt8]) {
        for b in s.utf8 where b != 0x0A && b != 0x0D && b != 0 { out.append(b) }
    }
}

/// An event formatted once (`event:`, `id:`, `data:` lines) to be queued on many streams: the
/// replays of clients at the same mission time send the same bytes, formatted and held once.
public struct FormattedEvent: Sendable {
    public let bytes: [UInt8]

    public init(event: String? = nil, id: String? = nil, data: String, retry: Int? = nil) {
        bytes = EventStream.format(event: event, id: id, data: data, retry: retry)
    }
}
