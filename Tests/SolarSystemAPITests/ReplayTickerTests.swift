import Dispatch
import Foundation
import Synchronization
import Testing
@testable import SolarSystemAPI

/// The one timer behind every mission replay: nothing fires early, everything due fires once,
/// the wheel's laps and stalls lose nothing, and the timer stops when nothing is scheduled.
@Suite("ReplayTicker", .serialized)
struct ReplayTickerTests {
    /// Records when it was woken; asks for `repeats` ticks, `interval` apart.
    final class Probe: ReplayTickerClient, @unchecked Sendable {
        let ticker: ReplayTicker
        let lock = NSLock()
        var due: [UInt64] = []
        var fired: [UInt64] = []
        var repeats: Int
        let interval: UInt64
        let done = DispatchSemaphore(value: 0)

        init(_ ticker: ReplayTicker, repeats: Int, interval: UInt64) {
            self.ticker = ticker
            self.repeats = repeats
            self.interval = interval
        }

        func start(at due: UInt64) {
            lock.withLock { self.due.append(due) }
            ticker.schedule(self, atUptimeNanoseconds: due)
        }

        func tickerFired() -> UInt64? {
            let now = DispatchTime.now().uptimeNanoseconds
            let next: UInt64? = lock.withLock {
                fired.append(now)
                repeats -= 1
                guard repeats > 0 else { return nil }
                let d = (due.last ?? now) + interval
                due.append(d)
                return d
            }
            if next == nil { done.signal() }
            return next
        }
    }

    @Test("every client fires once per schedule, never before its due time, and soon after it")
    func firesOnTime() throws {
        let ticker = ReplayTicker(slotNanoseconds: 2_000_000, slotCount: 64, batch: 8)
        let now = DispatchTime.now().uptimeNanoseconds
        // 200 clients, 20 ticks each, at 10-60 ms intervals from scattered starts: their due
        // times go round the 128 ms wheel several times; one starts in the past.
        let probes = (0..<200).map { Probe(ticker, repeats: 20, interval: UInt64(10 + $0 % 51) * 1_000_000) }
        for (i, p) in probes.enumerated() { p.start(at: i == 0 ? now - 50_000_000 : now + UInt64(i % 37) * 3_000_000) }
        for p in probes { #expect(p.done.wait(timeout: .now() + 30) == .success) }
        var lateness: [Double] = []
        for p in probes {
            p.lock.withLock {
                #expect(p.fired.count == 20)
                for (d, f) in zip(p.due, p.fired) {
                    #expect(f >= d, "fired \(Double(d - f) / 1e6) ms early")
                    if f >= d { lateness.append(Double(f - d) / 1e6) }
                }
            }
        }
        lateness.sort()
        // How late depends on the machine's load (the other suites run meanwhile and hold
        // dispatch's threads): only a bound that a lost tick would break.
        #expect(lateness[lateness.count / 2] < 5_000, "median lateness \(lateness[lateness.count / 2]) ms")
        // Nothing left: the timer has stopped.
        #expect(ticker.scheduledCount == 0)
    }

    @Test("a client due later within the slot being fired is taken by the next firing, not a turn later")
    func withinTheCurrentSlot() throws {
        // 10 ms slots and a one-minute turn; ticks every 3 ms mostly fall in the slot just
        // fired. One left for the next turn would not fire within the wait.
        let ticker = ReplayTicker(slotNanoseconds: 10_000_000, slotCount: 6_000, batch: 4)
        let now = DispatchTime.now().uptimeNanoseconds
        let probes = (0..<20).map { _ in Probe(ticker, repeats: 30, interval: 3_000_000) }
        for (i, p) in probes.enumerated() { p.start(at: now + UInt64(i) * 500_000) }
        for p in probes { #expect(p.done.wait(timeout: .now() + 30) == .success) }
        var lateness: [Double] = []
        for p in probes { p.lock.withLock { for (d, f) in zip(p.due, p.fired) { lateness.append(Double(Int64(f) - Int64(d)) / 1e6) } } }
        lateness.sort()
        #expect(lateness.count == 600 && lateness.first ?? -1 >= 0)
        #expect(lateness.last ?? .infinity < 20_000, "largest lateness \(lateness.last ?? .nan) ms")
    }

    @Test("a client due more than a turn of the wheel ahead waits for its time")
    func laterLaps() throws {
        let ticker = ReplayTicker(slotNanoseconds: 1_000_000, slotCount: 8, batch: 4)
        let now = DispatchTime.now().uptimeNanoseconds
        let far = Probe(ticker, repeats: 1, interval: 0), near = Probe(ticker, repeats: 3, interval: 4_000_000)
        far.start(at: now + 60_000_000)   // seven and a half turns of an 8 ms wheel ahead
        near.start(at: now + 1_000_000)
        #expect(near.done.wait(timeout: .now() + 10) == .success)
        #expect(far.lock.withLock { far.fired.isEmpty } || far.lock.withLock { far.fired[0] >= now + 60_000_000 })
        #expect(far.done.wait(timeout: .now() + 10) == .success)
        #expect(far.lock.withLock { far.fired.count == 1 && far.fired[0] >= now + 60_000_000 })
    }

    @Test("after a stall of many turns nothing due is lost and the timer restarts on demand")
    func restarts() throws {
        let ticker = ReplayTicker(slotNanoseconds: 1_000_000, slotCount: 4, batch: 2)
        let a = Probe(ticker, repeats: 1, interval: 0)
        a.start(at: DispatchTime.now().uptimeNanoseconds)
        #expect(a.done.wait(timeout: .now() + 10) == .success)
        #expect(ticker.scheduledCount == 0)
        // Idle, then a burst due now and in the past: all fire, once.
        Thread.sleep(forTimeInterval: 0.05)
        let now = DispatchTime.now().uptimeNanoseconds
        let burst = (0..<50).map { _ in Probe(ticker, repeats: 2, interval: 3_000_000) }
        for (i, p) in burst.enumerated() { p.start(at: now - UInt64(i) * 1_000_000) }
        for p in burst { #expect(p.done.wait(timeout: .now() + 10) == .success) }
        #expect(burst.allSatisfy { p in p.lock.withLock { p.fired.count == 2 } })
        #expect(ticker.scheduledCount == 0)
    }
}
