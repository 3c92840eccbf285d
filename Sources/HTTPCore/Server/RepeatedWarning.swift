/// Lets a warning that can repeat many times a second through at most once per interval, with
/// the number held back since the last one logged, so a log stays readable while a condition
/// lasts (the accept loop at the descriptor limit retries every 100 ms).
///
/// ```swift
/// var limiter = RepeatedWarning(intervalNanos: 10_000_000_000)
/// if let heldBack = limiter.record(nowNanos: clock()) { logger.warning("…", metadata: ["suppressed": "\(heldBack)"]) }
/// ```
struct RepeatedWarning: Sendable {
    let intervalNanos: UInt64
    private var heldBack = 0
    private var lastLogged: UInt64?

    init(intervalNanos: UInt64) {
        self.intervalNanos = intervalNanos
    }

    /// Counts one occurrence at `nowNanos` (a monotonic clock). Nil: hold this one back; else log
    /// it, with the number held back since the previous one logged.
    mutating func record(nowNanos: UInt64) -> Int? {
        if let lastLogged, nowNanos &- lastLogged < intervalNanos {
            heldBack += 1
            return nil
        }
        defer {
            heldBack = 0
            lastLogged = nowNanos
        }
        return heldBack
    }
}
