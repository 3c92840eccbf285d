import Glibc

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC), for timeouts and durations.
@inline(__always)
package func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

@inline(__always)
func nanos(_ seconds: Double) -> UInt64 { seconds <= 0 ? 0 : UInt64(seconds * 1e9) }
