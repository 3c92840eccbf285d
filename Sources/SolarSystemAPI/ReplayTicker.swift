import Dispatch
import Synchronization

/// Something the ``ReplayTicker`` wakes when it is due. `tickerFired` runs on a worker of the
/// global queue and returns when it wants the next tick (nil: no more); the worker schedules
/// its batch's next ticks under one lock.
protocol ReplayTickerClient: AnyObject, Sendable {
    func tickerFired() -> UInt64?
}

/// One timer for every mission replay: a timing wheel of `slotNanoseconds` slots (5 ms). Each
/// replay used to own a `DispatchSourceTimer`; at 10,000 streams that was 10,000 entries in
/// libdispatch's timer heap, and each tick a wake-up of a worker thread by dispatch's timer
/// thread (a fifth of the server's CPU at 3,000 streams, perf). Here one repeating timer runs
/// while anything is scheduled; each firing takes the replays due since the last and runs them
/// in batches of ``batch`` on the global queue, one wake-up for many ticks.
///
/// A tick runs at most one slot (plus the queue's latency) after its due time, never before it.
/// Scheduling is O(1); a slot holds the replays due in it, whatever the lap: a client due more
/// than a wheel's turn (5.12 s) ahead stays in its slot until its time.
final class ReplayTicker: Sendable {
    static let shared = ReplayTicker()

    let slotNanoseconds: UInt64
    let slotCount: Int
    /// Replays ticked by one worker in turn.
    let batch: Int

    private struct Entry {
        let due: UInt64
        let client: any ReplayTickerClient
    }

    private struct State {
        var slots: [[Entry]]
        /// The absolute slot number (uptime / slot) the next firing starts from: the slot of the
        /// last firing, whose later part was not yet due.
        var nextSlot: UInt64 = 0
        var scheduled = 0
        var running = false
    }

    private let state: Mutex<State>
    private let queue = DispatchQueue(label: "replay-ticker")
    /// Touched only on `queue`.
    private nonisolated(unsafe) var timer: DispatchSourceTimer?

    init(slotNanoseconds: UInt64 = 5_000_000, slotCount: Int = 1024, batch: Int = 64) {
        precondition(slotNanoseconds > 0 && slotCount > 0 && batch > 0)
        self.slotNanoseconds = slotNanoseconds
        self.slotCount = slotCount
        self.batch = batch
        state = Mutex(State(slots: Array(repeating: [], count: slotCount)))
    }

    /// How many ticks are waiting (for tests and `/metrics`-style checks).
    var scheduledCount: Int { state.withLock { $0.scheduled } }

    /// Wakes `client` once, at or after `due` (`DispatchTime.now().uptimeNanoseconds`'s clock).
    func schedule(_ client: any ReplayTickerClient, atUptimeNanoseconds due: UInt64) {
        schedule(CollectionOfOne(Entry(due: due, client: client)))
    }

    private func schedule(_ entries: some Collection<Entry>) {
        guard !entries.isEmpty else { return }
        let start: Bool = state.withLock { s in
            var first = UInt64.max
            for e in entries {
                // A due time already past goes in the slot the next firing takes first.
                let slot = max(e.due / slotNanoseconds, s.running ? s.nextSlot : 0)
                s.slots[Int(slot % UInt64(slotCount))].append(e)
                first = min(first, slot)
            }
            s.scheduled += entries.count
            guard !s.running else { return false }
            s.running = true
            s.nextSlot = min(first, DispatchTime.now().uptimeNanoseconds / slotNanoseconds)
            return true
        }
        if start { queue.async { self.startTimer() } }
    }

    private func startTimer() {
        guard timer == nil else { return }
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now(), repeating: .nanoseconds(Int(slotNanoseconds)), leeway: .nanoseconds(Int(slotNanoseconds / 5)))
        t.setEventHandler { [weak self] in self?.fire() }
        timer = t
        t.resume()
    }

    /// On `queue`: takes every entry due by now from the slots passed since the last firing,
    /// hands them to the workers in batches, and stops the timer when nothing is left.
    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let nowSlot = now / slotNanoseconds
        let (due, idle): ([any ReplayTickerClient], Bool) = state.withLock { s in
            var due: [any ReplayTickerClient] = []
            // At most one lap: after a long stall every slot is looked at once.
            let last = min(nowSlot, s.nextSlot + UInt64(slotCount) - 1)
            var slot = s.nextSlot
            while slot <= last {
                let i = Int(slot % UInt64(slotCount))
                if !s.slots[i].isEmpty {
                    var later: [Entry] = []
                    for e in s.slots[i] {
                        if e.due <= now { due.append(e.client) } else { later.append(e) }
                    }
                    s.slots[i] = later
                }
                slot += 1
            }
            // The current slot again next time: it may hold entries due later within it.
            s.nextSlot = nowSlot
            s.scheduled -= due.count
            if s.scheduled == 0 { s.running = false }
            return (due, s.scheduled == 0)
        }
        if idle {
            timer?.cancel()
            timer = nil
        }
        guard !due.isEmpty else { return }
        var start = 0
        while start < due.count {
            let chunk = due[start..<min(due.count, start + batch)]
            DispatchQueue.global().async {
                var next: [Entry] = []
                next.reserveCapacity(chunk.count)
                for c in chunk {
                    if let due = c.tickerFired() { next.append(Entry(due: due, client: c)) }
                }
                self.schedule(next)
            }
            start += batch
        }
    }
}
