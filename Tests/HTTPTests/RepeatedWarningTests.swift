import Testing
@testable import HTTPCore

@Suite("Rate-limited warnings")
struct RepeatedWarningTests {
    @Test("a warning repeated every 100 ms is logged once per 10 s, with the number held back")
    func onceAnInterval() {
        var limiter = RepeatedWarning(intervalNanos: 10_000_000_000)
        let start: UInt64 = 5_000_000_000
        var logged: [(at: UInt64, heldBack: Int)] = []
        // 25 s of accept failures, one every 100 ms.
        for i in 0..<250 {
            let t = start + UInt64(i) * 100_000_000
            if let n = limiter.record(nowNanos: t) { logged.append((t, n)) }
        }
        #expect(logged.map(\.at) == [start, start + 10_000_000_000, start + 20_000_000_000])
        #expect(logged.map(\.heldBack) == [0, 99, 99])
        // After a quiet spell the next one is logged at once, counting the 49 held back since.
        #expect(limiter.record(nowNanos: start + 60_000_000_000) == 49)
        #expect(limiter.record(nowNanos: start + 60_000_000_001) == nil)
    }
}
