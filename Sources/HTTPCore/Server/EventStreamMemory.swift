import Synchronization

/// What all the event streams together hold for their clients — each stream's queue plus its
/// connection's unsent bytes — against ``HTTPServerConfiguration/eventStreamMemoryLimit``. Each
/// stream is bounded on its own (``HTTPServerConfiguration/eventStreamQueueLimit``), but ten
/// thousand clients that stop reading would still hold ten thousand queues: past the total, the
/// stream holding the most is dropped (the slowest reader), as many times as it takes.
///
/// Streams report changes of their own total (``adjust(_:by:)``); the one to drop is returned,
/// and dropped by the caller outside the lock. Each event is reported twice (queued, then
/// written), so the total is an atomic and each stream keeps its own count: the registry of
/// streams is locked only when a stream opens or ends and when the total is over the limit
/// (a global lock per event held a third of the server's CPU at 60,000 events a second).
final class EventStreamMemory: Sendable {
    let limit: Int
    private let held = Atomic<Int>(0)
    private struct Weak: @unchecked Sendable { weak var stream: EventStream? }
    private let streams = Mutex<[ObjectIdentifier: Weak]>([:])

    init(limit: Int) {
        self.limit = max(64 * 1024, limit)
    }

    /// Bytes all the streams hold now.
    var total: Int { held.load(ordering: .relaxed) }

    /// A new stream (before it reports anything).
    func register(_ stream: EventStream) {
        streams.withLock { $0[ObjectIdentifier(stream)] = Weak(stream: stream) }
    }

    /// `stream` holds `delta` bytes more (or fewer); returns the stream to drop when the total is
    /// now over the limit (the one holding the most), nil otherwise.
    func adjust(_ stream: EventStream, by delta: Int) -> EventStream? {
        guard delta != 0 else { return nil }
        let now = held.add(delta, ordering: .relaxed).newValue
        guard now > limit, delta > 0 else { return nil }
        return streams.withLock { registry -> EventStream? in
            // Looked at again under the lock: another stream may have been counted out since.
            guard held.load(ordering: .relaxed) > limit else { return nil }
            // The slowest reader: the stream holding the most.
            var victim: (stream: EventStream, bytes: Int)?
            for entry in registry.values {
                guard let s = entry.stream else { continue }
                let b = s.heldBytes
                if b > (victim?.bytes ?? 0) { victim = (s, b) }
            }
            guard let victim else { return nil }
            // Counted out now, so one burst does not drop more streams than it must; it
            // reports nothing more.
            registry[ObjectIdentifier(victim.stream)] = nil
            held.subtract(victim.stream.countOut(), ordering: .relaxed)
            return victim.stream
        }
    }

    /// The stream ended: it leaves the registry; `bytes` (what it still counted) leave the total.
    func remove(_ stream: EventStream, bytes: Int) {
        streams.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(stream)) }
        if bytes != 0 { held.subtract(bytes, ordering: .relaxed) }
    }
}
