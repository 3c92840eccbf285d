import HTTPCore
import Synchronization

/// The replay events of the last few mission times, formatted once and shared by every stream
/// that reaches them: replays of a mission with the same start, speed and rate tick through the
/// same mission times (``MissionReplay`` puts its ticks on a grid), so 10,000 clients of one
/// replay cost one telemetry computation and one encoding per tick, not 10,000.
///
/// Bounded by entry count; the oldest entries leave first (a ring of keys). A key names the
/// mission, the event's id and, for telemetry, the exact mission time (two ticks within one
/// millisecond share an id but not their data).
final class ReplayEventCache: Sendable {
    struct Key: Hashable, Sendable {
        let mission: String
        let id: String
        let hoursBits: UInt64
    }

    private struct State {
        var events: [Key: FormattedEvent] = [:]
        var order: [Key?]
        var next = 0
        var hits = 0
        var misses = 0
    }

    let capacity: Int
    private let state: Mutex<State>

    init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
        state = Mutex(State(order: Array(repeating: nil, count: capacity)))
    }

    /// The event for `key`, made by `make` (outside the lock) when it is not held. A `make`
    /// that throws caches nothing.
    func event(_ key: Key, make: () throws -> FormattedEvent) rethrows -> FormattedEvent {
        if let hit = state.withLock({ s -> FormattedEvent? in
            let e = s.events[key]
            if e != nil { s.hits += 1 } else { s.misses += 1 }
            return e
        }) {
            return hit
        }
        let made = try make()
        state.withLock { s in
            guard s.events[key] == nil else { return }
            if let old = s.order[s.next] { s.events[old] = nil }
            s.order[s.next] = key
            s.next = (s.next + 1) % capacity
            s.events[key] = made
        }
        return made
    }

    /// Lookups answered from the cache and made anew (for tests and `/metrics`).
    var counts: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
    var count: Int { state.withLock { $0.events.count } }
}
