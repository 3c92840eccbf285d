import HTTPCore
import Testing
@testable import SolarSystemAPI

@Suite("ReplayEventCache")
struct ReplayEventCacheTests {
    private func key(_ n: Int) -> ReplayEventCache.Key { .init(mission: "apollo11", id: "\(n)", hoursBits: UInt64(n)) }

    @Test("an event is made once and then shared; the oldest leave first when it is full")
    func sharedAndBounded() {
        let cache = ReplayEventCache(capacity: 3)
        var made = 0
        func get(_ n: Int) -> [UInt8] {
            cache.event(key(n)) { made += 1; return FormattedEvent(event: "telemetry", id: "\(n)", data: "{\"n\":\(n)}") }.bytes
        }
        #expect(get(1) == Array("event: telemetry\nid: 1\ndata: {\"n\":1}\n\n".utf8))
        _ = get(1)
        #expect(made == 1)
        #expect(cache.counts.hits == 1 && cache.counts.misses == 1)
        _ = get(2); _ = get(3); _ = get(4)
        #expect(cache.count == 3)
        #expect(made == 4)
        _ = get(1) // evicted by 4: made again
        #expect(made == 5)
        _ = get(4)
        #expect(made == 5)
        // Same id, another mission time: another event.
        _ = cache.event(.init(mission: "apollo11", id: "4", hoursBits: 99)) { made += 1; return FormattedEvent(data: "x") }
        #expect(made == 6)
    }

    @Test("a make that throws caches nothing")
    func throwingMake() {
        struct Failed: Error {}
        let cache = ReplayEventCache(capacity: 2)
        #expect(throws: Failed.self) { _ = try cache.event(key(1)) { throw Failed() } }
        #expect(cache.count == 0)
    }
}
