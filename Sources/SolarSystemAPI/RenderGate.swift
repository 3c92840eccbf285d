import Dispatch
import Synchronization

/// Admits one large raster render at a time (an image buffer of width × height × 3 bytes: 48 MiB
/// at 4096 × 4096), so two cannot push the process past its memory budget. Waiting happens on the
/// worker pool, never on an event loop. `active` and `peak` make the rule observable
/// (`solarsystem_large_renders_active` on /metrics; tests read `peak`).
final class RenderGate: Sendable {
    private let slot = DispatchSemaphore(value: 1)
    private let counts = Mutex((active: 0, peak: 0))

    /// Runs `body` once the gate is free; nil when it stayed busy for `timeout` seconds.
    func run<T>(timeout: Double, _ body: () throws -> T) rethrows -> T? {
        guard slot.wait(timeout: .now() + timeout) == .success else { return nil }
        counts.withLock { c in
            c.active += 1
            c.peak = max(c.peak, c.active)
        }
        defer {
            counts.withLock { $0.active -= 1 }
            slot.signal()
        }
        return try body()
    }

    var active: Int { counts.withLock { $0.active } }
    /// The most large renders ever in progress at once (1 unless the gate is broken).
    var peak: Int { counts.withLock { $0.peak } }
}
