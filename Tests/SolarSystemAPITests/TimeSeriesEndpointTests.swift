import Ephemeris
import Foundation
import HTTPCore
import HTTPTestSupport
@testable import SolarSystemAPI
import Testing

@Suite("GET /v1/positions/{id}: time series")
struct TimeSeriesEndpointTests {
    @Test("start/stop/step: inclusive samples at the step, each with its state")
    func stepped() throws {
        let r = try APIServer.get("/v1/positions/mars?start=2026-01-01&stop=2026-01-03&step=6h")
        #expect(r.status == 200)
        #expect(r.json["id"] as? String == "mars")
        let samples = r.objects("samples")
        #expect(samples.count == 9)
        #expect(number(r.json["count"]) == 9)
        #expect(samples.first?["date"] as? String == "2026-01-01T00:00:00Z")
        #expect(samples.last?["date"] as? String == "2026-01-03T00:00:00Z")
        // The series agrees with the snapshot endpoint at the same instant.
        let snap = try APIServer.get("/v1/positions?date=2026-01-02T12:00:00Z&bodies=mars").objects("bodies")[0]
        let mid = samples[6]
        #expect(mid["date"] as? String == "2026-01-02T12:00:00Z")
        #expect(((vector(mid["position"]) ?? .zero) - (vector(snap["position"]) ?? .zero)).length < 1e-12)
    }

    @Test("steps in d, h, m and s", arguments: [("1d", 3), ("6h", 9), ("30m", 97), ("90s", 1921)])
    func stepUnits(step: String, count: Int) throws {
        let r = try APIServer.get("/v1/positions/moon?start=2026-01-01&stop=2026-01-03&step=\(step)&format=csv")
        #expect(r.status == 200)
        #expect(r.csvRows.count == count + 1, "\(step)")
    }

    @Test("times= list, CSV by format=csv and by Accept: text/csv, with a header row")
    func csv() throws {
        let a = try APIServer.get("/v1/positions/moon?times=2026-01-01,jd:2461042.5&center=earth&format=csv")
        let b = try APIServer.get("/v1/positions/moon?times=2026-01-01,jd:2461042.5&center=earth", headers: ["Accept": "text/csv"])
        #expect(a.header("content-type")?.hasPrefix("text/csv") == true)
        #expect(a.body == b.body)
        // Negotiated on Accept: shared caches must keep the JSON and CSV answers apart.
        #expect(b.header("vary")?.contains("Accept") == true)
        #expect(b.header("etag") != (try APIServer.get("/v1/positions/moon?times=2026-01-01,jd:2461042.5&center=earth").header("etag")))
        let rows = a.csvRows
        #expect(rows.first == ["date", "jd_tt", "jd_tdb", "x", "y", "z", "vx", "vy", "vz", "distance"])
        #expect(rows.count == 3)
        #expect(rows[2][0] == "2026-01-02T00:00:00Z")
        for row in rows.dropFirst() {
            #expect(row.count == 10)
            let d = Double(row[9]) ?? 0
            #expect(d > 356_000 && d < 407_000)
            let xyz = row[3...5].compactMap(Double.init)
            #expect(abs((xyz.map { $0 * $0 }.reduce(0, +)).squareRoot() - d) < 1e-6 * d)
        }
    }

    @Test("long series stream chunked and parse whole; 100,000 samples is the limit")
    func streaming() throws {
        let r = try APIServer.get("/v1/positions/earth?start=2000-01-01&stop=2027-05-18&step=1d")
        #expect(r.status == 200)
        #expect(r.chunked)
        let samples = r.objects("samples")
        #expect(samples.count == 10_000)
        #expect(number(r.json["count"]) == 10_000)
        let csv = try APIServer.get("/v1/positions/earth?start=2000-01-01&stop=2027-05-18&step=1d&format=csv")
        #expect(csv.chunked && csv.csvRows.count == 10_001)
        let max = try APIServer.get("/v1/positions/sun?start=2026-01-01&stop=2026-01-01T27:46:39Z&step=1s")
        #expect(max.status == 400) // not a valid ISO time: 27 h
        let limit = try APIServer.get("/v1/positions/sun?start=2026-01-01T00:00:00Z&stop=2026-01-02T03:46:39Z&step=1s&format=csv")
        #expect(limit.status == 200)
        #expect(limit.csvRows.count == 100_001)
        // One sample more: the first 100,000 and a link to the rest.
        let over = try APIServer.get("/v1/positions/sun?start=2026-01-01T00:00:00Z&stop=2026-01-02T03:46:40Z&step=1s&format=csv")
        #expect(over.status == 200)
        #expect(over.csvRows.count == 100_001)
        let link = try #require(over.header("link"))
        #expect(link == "</v1/positions/sun?start=2026-01-02T03:46:40Z&stop=2026-01-02T03:46:40Z&step=1s&format=csv>; rel=\"next\"")
        let target = String(link.dropFirst().prefix { $0 != ">" })
        let rest = try APIServer.get(target)
        #expect(rest.csvRows.count == 2 && rest.csvRows.last?.first == "2026-01-02T03:46:40Z")
        let json = try APIServer.get("/v1/positions/sun?start=2026-01-01&stop=2026-01-02T03:46:40Z&step=1s")
        #expect(json.json["truncated"] as? Bool == true && number(json.json["count"]) == 100_000)
        #expect(json.header("link")?.hasPrefix("</v1/positions/sun?start=2026-01-02T03:46:40Z&stop=") == true)
    }

    @Test("defaults, an empty span and times' precedence: every valid combination is answered")
    func defaultsAndPrecedence() throws {
        let none = try APIServer.get("/v1/positions/mars")
        #expect(none.status == 200 && number(none.json["count"]) == 1 && none.header("cache-control") == "no-store")
        #expect(none.objects("samples").first?["date"] as? String == "2026-11-22T12:00:00Z", "now, by the pinned clock")
        let one = try APIServer.get("/v1/positions/mars?start=2026-01-01")
        #expect(number(one.json["count"]) == 1 && one.json["truncated"] as? Bool == false)
        let days = try APIServer.get("/v1/positions/mars?start=2026-01-01&stop=2026-01-03")
        #expect(days.objects("samples").compactMap { $0["date"] as? String } == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"])
        let empty = try APIServer.get("/v1/positions/mars?start=2026-01-02&stop=2026-01-01&step=1h")
        #expect(empty.status == 200 && number(empty.json["count"]) == 0 && empty.objects("samples").isEmpty)
        #expect(empty.header("etag") != nil, "a fixed empty answer is cacheable like any other")
        let listed = try APIServer.get("/v1/positions/mars?start=2026-01-01&stop=2026-01-09&step=1d&times=2026-05-01,2026-04-01")
        #expect(listed.objects("samples").compactMap { $0["date"] as? String } == ["2026-05-01T00:00:00Z", "2026-04-01T00:00:00Z"])
        let fine = try APIServer.get("/v1/positions/mars?start=2026-01-01T00:00:00Z&stop=2026-01-01T00:00:02Z&step=0.5s")
        #expect(number(fine.json["count"]) == 5)
        // The finest step accepted, the millisecond, gives a distinct time on every row.
        let finest = try APIServer.get("/v1/positions/mars?start=2026-01-01T00:00:00Z&stop=2026-01-01T00:00:00.005Z&step=0.001s")
        let times = finest.objects("samples").compactMap { $0["date"] as? String }
        #expect(times.count == 6 && Set(times).count == times.count, "\(times)")
    }

    @Test("bad series requests are 400 problems naming the parameter", arguments: [
        ("start=2026-01-01&stop=2026-01-02&step=0h", "step"), ("start=2026-01-01&stop=2026-01-02&step=-1d", "step"),
        ("start=2026-01-01&stop=2026-01-02&step=1y", "step"), ("start=2026-01-01&stop=2026-01-02&step=0.000s", "step"),
        ("start=2026-01-01&stop=2026-01-02&step=.s", "step"), ("times=2026-01-01&step=0h", "step"),
        // Finer than the millisecond the instants are held to: rows would repeat a time.
        ("start=2026-01-01T00:00:00Z&stop=2026-01-01T00:00:00.010Z&step=0.0005s", "step"),
        ("times=2026-01-01&start=yesterday", "start"), ("start=2026-01-01&stop=3500-01-01&step=1d", "stop"),
        ("times=2026-01-01,bogus", "times"), ("times=2026-01-01&format=xml", "format"),
    ])
    func badRequests(query: String, parameter: String) throws {
        let r = try APIServer.get("/v1/positions/earth?\(query)")
        #expect(r.status == 400, "\(query): \(r.bodyText)")
        #expect(r.json["parameter"] as? String == parameter, "\(query): \(r.bodyText)")
    }

    @Test("more than 1,000 times is refused: by the parser's 8 KiB request line over HTTP, by the limit in the API")
    func tooManyTimes() throws {
        // 1,001 dates need at least 11 KB, so over HTTP the request line limit answers first.
        let list = Array(repeating: "2026-01-01", count: 1001).joined(separator: ",")
        let r = try APIServer.get("/v1/positions/earth?times=\(list)")
        #expect(r.status == 414)
        // The API's own limit, for any caller that gets past the transport.
        #expect(throws: ProblemDetails.self) {
            _ = try SeriesTimes.parse(start: nil, stop: nil, step: nil, times: list, clock: { 0 })
        }
        let thousand = Array(repeating: "2026-01-01", count: 1000).joined(separator: ",")
        #expect(try SeriesTimes.parse(start: nil, stop: nil, step: nil, times: thousand, clock: { 0 }).count == 1000)
    }

    @Test("a series from a vehicle's first instant is served, as that instant alone is (within a millisecond of its segment)")
    func fromFirstInstant() throws {
        // Eagle's kernel starts at undocking, 1969-07-20T17:44:00Z; the series' first instant,
        // converted from UTC with ΔT, lands a hair before it (scripts/mission-facts.py asks this).
        let one = try APIServer.get("/v1/positions/naif:-1969012?center=moon&units=km&times=1969-07-20T17:44:00Z")
        let series = try APIServer.get("/v1/positions/naif:-1969012?center=moon&units=km&start=1969-07-20T17:44:00Z&stop=1969-07-20T19:08:14Z&step=1m")
        #expect(one.status == 200)
        #expect(series.status == 200, "\(String(decoding: series.body, as: UTF8.self))")
        #expect(series.objects("samples").count == 85)
        #expect(try APIServer.get("/v1/positions/naif:-1969012?center=moon&units=km&start=1969-07-20T17:43:59Z&stop=1969-07-20T19:08:14Z&step=1m").status == 422)
    }

    @Test("unknown body in the path is a 404 with the valid ids")
    func unknownBody() throws {
        let r = try APIServer.get("/v1/positions/krypton?times=2026-01-01")
        #expect(r.status == 404)
        // The 25 catalogue bodies first, then the mission vehicles, then every NAIF id the kernels cover.
        let ids = r.json["validIds"] as? [String] ?? []
        #expect(ids.prefix(3) == ["sun", "mercury", "venus"] && ids[24] == "iapetus")
        #expect(["lm_eagle", "voyager2", "perseverance", "mro", "naif:-32", "naif:-168", "naif:-121", "naif:-74"].allSatisfy(ids.contains))
        // 17 vehicles of 16 missions; 23 NAIF ids (Apollo's own, Perseverance's EDL and rover parts)
        // and the 5 moons the mission kernels moved where the spacecraft's data put them.
        #expect(["naif:501", "naif:502", "naif:503", "naif:606", "naif:608"].allSatisfy(ids.contains))
        #expect(Set(ids).count == ids.count && ids.count == 25 + 17 + 23 + 5, "\(ids.count)")
    }
}
