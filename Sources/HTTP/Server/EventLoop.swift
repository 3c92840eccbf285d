import Dispatch

/// One serial queue and the connections assigned to it. Everything a connection does runs on
/// its loop's queue; a periodic tick enforces timeouts and sends SSE heartbeats, so no
/// connection owns a timer.
final class EventLoop: @unchecked Sendable {
    let index: Int
    let queue: DispatchQueue
    /// Scratch buffer for `read`: only used on `queue`, shared by its connections.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Loop-confined: touched only on `queue` (checked in debug builds).
    var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var timer: DispatchSourceTimer?

    private static let identity = DispatchSpecificKey<ObjectIdentifier>()

    init(index: Int) {
        self.index = index
        // Target the width-limited global queue rather than the default overcommitting one:
        // loops then share at most one thread per core instead of each getting its own, which
        // measured a lower p99 on 2 cores shared with the load generator (docs/http.md).
        queue = DispatchQueue(label: "http.loop.\(index)", qos: .userInitiated, target: .global(qos: .userInitiated))
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        queue.setSpecific(key: EventLoop.identity, value: ObjectIdentifier(self))
    }

    deinit { readBuffer.deallocate() }

    /// Whether the caller runs on this loop's queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: EventLoop.identity) == ObjectIdentifier(self) }

    /// Traps in debug builds when loop-confined state is touched from another thread (compiled
    /// out of release builds).
    @inline(__always)
    func assertOnLoop(_ function: StaticString = #function) {
        assert(isCurrent, "\(function) must run on event loop \(index)")
    }

    func startTicking(every seconds: Double) {
        let t = DispatchSource.makeTimerSource(queue: queue)
        let interval = DispatchTimeInterval.nanoseconds(Int(seconds * 1e9))
        t.schedule(deadline: .now() + interval, repeating: interval, leeway: .nanoseconds(Int(seconds * 0.25e9)))
        t.setEventHandler { [weak self] in self?.tick() }
        t.resume()
        timer = t
    }

    func stopTicking() {
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        assertOnLoop()
        let now = monotonicNanos()
        for c in Array(connections.values) { c.tick(now) }
    }
}
