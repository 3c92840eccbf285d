import Synchronization

/// What all the event streams together hold for their clients — each stream's queue plus its
/// connection's unsent bytes — against ``HTTPServerConfiguration/eventStreamMemoryLimit``. Each
/// stream is bounded on its own (``HTTPServerConfiguration/eventStreamQueueLimit``), but ten
/// thousand clients that stop reading would still hold ten thousand queues: past the total, the
/// stream holding the most is dropped (the slowest reader), as many times as it takes.
///
/// Streams report changes of their own total (``adjust(_:by:)``); the one to drop is returned,
/// and dropped by the caller outside the lock.
final class EventStreamMemory: Sendable {
    let limit: Int
    private struct State {
        var total = 0
        var held: [ObjectIdentifier: (stream: Weak, bytes: Int)] = [:]
    }
    private struct Weak: @unchecked Sendable { weak var stream: EventStream? }
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(64 * 1024, limit)
    }

    /// Bytes all the streams hold now.
    var total: Int { state.withLock { $0.total } }

    /// `stream` holds `delta` bytes more (or fewer); returns the stream to drop when the total is
    /// now over the limit (the one holding the most), nil otherwise.
    func adjust(_ stream: EventStream, by delta: Int) -> EventStream? {
        guard delta != 0 else { return nil }
        return state.withLock { s -> EventStream? in
            let id = ObjectIdentifier(stream)
            // A stream already counted out (dropped, or finished) only ever reports less.
            let before = s.held[id]?.bytes ?? 0
            let now = max(0, before + delta)
            if now > 0 { s.held[id] = (Weak(stream: stream), now) } else { s.held[id] = nil }
            s.total += now - before
            guard s.total > limit else { return nil }
            // The slowest reader: the stream holding the most. Its bytes leave the total when its
            // connection drops it (its finish reports them).
            var victim: (id: ObjectIdentifier, bytes: Int, stream: EventStream?)?
            for (key, entry) in s.held where entry.bytes > (victim?.bytes ?? 0) {
                victim = (key, entry.bytes, entry.stream.stream)
            }
            guard let victim else { return nil }
            // Counted out now, so one burst does not drop more streams than it must.
            s.total -= victim.bytes
            s.held[victim.id] = nil
            return victim.stream
        }
    }

    /// The stream ended: whatever it still counted leaves the total.
    func remove(_ stream: EventStream) {
        state.withLock { s in
            if let entry = s.held.removeValue(forKey: ObjectIdentifier(stream)) { s.total -= entry.bytes }
        }
    }
}
