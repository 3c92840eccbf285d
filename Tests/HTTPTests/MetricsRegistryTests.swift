import Testing
@testable import HTTPCore

@Suite("MetricsRegistry")
struct MetricsRegistryTests {
    @Test func exposition() {
        let r = MetricsRegistry()
        let hits = r.counter("cache_hits_total", help: "Hits.", labelNames: ["kind"])
        hits.increment(labels: ["trajectory"])
        hits.increment(by: 2, labels: ["trajectory"])
        hits.increment(labels: ["a\"b\\c\nd"])
        let g = r.gauge("sse_streams", help: "Streams.")
        g.set(3)
        g.add(-1)
        r.gauge("answer", help: "Computed at scrape.") { 42 }
        let h = r.histogram("render_seconds", help: "Render time.", buckets: [0.1, 1])
        h.observe(0.05)
        h.observe(0.5)
        h.observe(5)
        #expect(r.counter("cache_hits_total", help: "again", labelNames: ["kind"]) === hits)
        let text = String(decoding: r.render(), as: UTF8.self)
        let expected = """
        # HELP cache_hits_total Hits.
        # TYPE cache_hits_total counter
        cache_hits_total{kind="a\\"b\\\\c\\nd"} 1
        cache_hits_total{kind="trajectory"} 3
        # HELP sse_streams Streams.
        # TYPE sse_streams gauge
        sse_streams 2
        # HELP answer Computed at scrape.
        # TYPE answer gauge
        answer 42
        # HELP render_seconds Render time.
        # TYPE render_seconds histogram
        render_seconds_bucket{le="0.1"} 1
        render_seconds_bucket{le="1"} 2
        render_seconds_bucket{le="+Inf"} 3
        render_seconds_sum 5.55
        render_seconds_count 3

        """
        #expect(text == expected)
    }

    @Test func concurrentIncrementsAreNotLost() async {
        let r = MetricsRegistry()
        let c = r.counter("n_total", help: "n", labelNames: ["k"])
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for _ in 0..<1000 { c.increment(labels: [t % 2 == 0 ? "even" : "odd"]) }
                }
            }
        }
        #expect(c.value(labels: ["even"]) == 4000)
        #expect(c.value(labels: ["odd"]) == 4000)
    }
}
