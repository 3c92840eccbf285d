@testable import SolarSystemAPI
import Testing

@Suite("ByteBoundedCache")
struct ByteBoundedCacheTests {
    @Test("evicts least recently used entries to stay within its byte capacity")
    func eviction() {
        let c = ByteBoundedCache<String>(capacityBytes: 10)
        c.insert([1, 2, 3, 4], for: "a")
        c.insert([5, 6, 7, 8], for: "b")
        #expect(c["a"] == [1, 2, 3, 4]) // a is now more recent than b
        c.insert([9, 9, 9, 9], for: "c") // 12 bytes > 10: b goes
        #expect(c["b"] == nil)
        #expect(c["a"] != nil && c["c"] != nil)
        #expect(c.totalBytes == 8 && c.count == 2)
        c.insert(Array(repeating: 0, count: 11), for: "huge") // larger than the whole cache: not kept
        #expect(c["huge"] == nil && c.count == 2)
        c.insert([1], for: "a") // replacing updates the size
        #expect(c.totalBytes == 5)
        let s = c.statistics
        #expect(s.evictions == 1 && s.hits == 3 && s.misses == 2)
        c.removeAll()
        #expect(c.count == 0 && c.totalBytes == 0)
    }

    @Test("concurrent use keeps the size consistent")
    func concurrent() async {
        let c = ByteBoundedCache<Int>(capacityBytes: 1000)
        await withTaskGroup(of: Void.self) { g in
            for t in 0..<8 {
                g.addTask {
                    for i in 0..<500 {
                        c.insert(Array(repeating: UInt8(t), count: 10 + i % 50), for: (t * 1000 + i) % 200)
                        _ = c[(i * 7) % 200]
                    }
                }
            }
        }
        #expect(c.totalBytes <= 1000)
    }
}
