import HTTPCore
import HTTPTestSupport
@testable import SolarSystemAPI
import Testing

@Suite("ResponseCache: encoded answers, least recently used out, bounded by bytes")
struct ResponseCacheTests {
    /// A body that is not compressed (octet-stream), so its size is exactly `count`.
    static func body(_ count: Int, _ fill: UInt8 = 0) -> EncodedBody {
        EncodedBody(bytes: [UInt8](repeating: fill, count: count), contentType: "application/octet-stream")
    }

    @Test("evicts least recently used entries to stay within its byte capacity")
    func eviction() {
        let c = ResponseCache<String>(capacityBytes: 10, maxEntryBytes: 10)
        c.insert(Self.body(4, 1), for: "a")
        c.insert(Self.body(4, 2), for: "b")
        #expect(c["a"]?.identity == [1, 1, 1, 1]) // a is now more recent than b
        c.insert(Self.body(4, 3), for: "c") // 12 bytes > 10: b goes
        #expect(c["b"] == nil)
        #expect(c["a"] != nil && c["c"] != nil)
        #expect(c.totalBytes == 8 && c.count == 2)
        c.insert(Self.body(11), for: "huge") // larger than an entry may be: not kept
        #expect(c["huge"] == nil && c.count == 2)
        c.insert(Self.body(1), for: "a") // replacing updates the size
        #expect(c.totalBytes == 5)
        let s = c.statistics
        #expect(s.evictions == 1 && s.hits == 3 && s.misses == 2 && s.insertions == 4)
        c.removeAll()
        #expect(c.count == 0 && c.totalBytes == 0)
    }

    @Test("the order of use decides what goes, over many entries (the list stays consistent)")
    func orderOfUse() {
        let c = ResponseCache<Int>(capacityBytes: 100, maxEntryBytes: 100)
        for i in 0..<10 { c.insert(Self.body(10), for: i) }
        for i in stride(from: 0, to: 10, by: 2) { _ = c[i] } // evens now newer than odds
        for i in 10..<15 { c.insert(Self.body(10), for: i) } // five go: the odd ones
        for i in 0..<10 { #expect((c[i] != nil) == (i % 2 == 0), "entry \(i)") }
        #expect(c.count == 10 && c.totalBytes == 100)
    }

    @Test("a gzip variant counts toward the size; large entries are refused by default (a quarter of the capacity)")
    func variants() {
        let json = Array(String(repeating: "{\"a\":1}", count: 400).utf8)
        let body = EncodedBody(bytes: json, contentType: HTTPResponse.jsonContentType)
        #expect(body.gzip != nil && body.byteCount == json.count + (body.gzip?.count ?? 0))
        let c = ResponseCache<String>(capacityBytes: 4 * body.byteCount)
        c.insert(body, for: "fits")
        #expect(c.totalBytes == body.byteCount)
        let small = ResponseCache<String>(capacityBytes: 4 * body.byteCount - 4)
        small.insert(body, for: "too big for a quarter")
        #expect(small.count == 0)
    }

    @Test("concurrent use keeps the size consistent")
    func concurrent() async {
        let c = ResponseCache<Int>(capacityBytes: 1000, maxEntryBytes: 100)
        await withTaskGroup(of: Void.self) { g in
            for t in 0..<8 {
                g.addTask {
                    for i in 0..<500 {
                        c.insert(Self.body(10 + i % 50, UInt8(t)), for: (t * 1000 + i) % 200)
                        _ = c[(i * 7) % 200]
                    }
                }
            }
        }
        let s = c.statistics
        #expect(s.bytes <= 1000 && s.bytes >= 0 && s.entries <= 100)
    }
}

@Suite("The response cache's counters through the API")
struct ResponseCacheCountingTests {
    /// Its own services (no kernel, no textures), so no other test's requests touch the counters.
    @Test("one miss per computed answer, one hit per answer served from memory, on /metrics too")
    func oneMissPerComputedAnswer() throws {
        let services = try APIServices(
            catalogue: APIServer.services.catalogue, stars: APIServer.services.stars, missions: APIServer.missions,
            bodies: APIServer.bodies, openAPIDocument: [], clock: { APIServer.pinnedNow })
        let api = V1API(services: services)
        let registry = MetricsRegistry()
        api.registerMetrics(on: registry)
        let server = try TestServer { api.register(on: $0) }
        defer { server.stop() }
        for target in ["/v1/positions?date=2026-01-01", "/v1/positions?date=2026-01-01T00:00:00Z", "/v1/positions?date=2026-01-02",
                       "/v1/positions?date=2026-01-01", "/v1/positions?date=now"] {
            #expect(try server.get(target).status == 200, "\(target)")
        }
        // Two answers computed (1 and 2 January; the second spelling is the same key), two served
        // from memory; `now` is never cached, so neither.
        let s = services.responses.statistics
        #expect(s.misses == 2 && s.hits == 2 && s.insertions == 2, "\(s)")
        let metrics = String(decoding: registry.render(), as: UTF8.self)
        #expect(metrics.contains("solarsystem_response_cache_misses_total 2\n"), "\(metrics)")
        #expect(metrics.contains("solarsystem_response_cache_hits_total 2\n"), "\(metrics)")
    }
}
