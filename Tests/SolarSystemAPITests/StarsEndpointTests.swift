import Foundation
import HTTPTestSupport
import Testing

@Suite("GET /v1/stars")
struct StarsEndpointTests {
    @Test("maxMagnitude filters; positions on the radius-500 sphere; colours and tiers")
    func filter() throws {
        let r = try APIServer.get("/v1/stars?maxMagnitude=1.5")
        #expect(r.status == 200)
        let stars = r.objects("stars")
        #expect(stars.count > 15 && stars.count < 30)
        for s in stars {
            #expect((number(s["magnitude"]) ?? 9) <= 1.5)
            #expect(abs((vector(s["position"])?.length ?? 0) - 500) < 0.01)
            #expect((s["colorRgb"] as? [Double])?.allSatisfy { (0...1).contains($0) } == true)
            #expect(number(s["tier"]) == ((number(s["magnitude"]) ?? 9) < 1.5 ? 0 : 1))
        }
        let sirius = stars.first { $0["name"] as? String == "Sirius" }
        #expect(stars.first?["name"] as? String == "Sirius") // brightest first
        let mags = stars.compactMap { number($0["magnitude"]) }
        #expect(mags == mags.sorted())
        #expect(r.header("vary")?.contains("Accept") == true)
        // Sirius (RA 6h45m, Dec −16.7°) is south of the ecliptic: scene y < 0... and blue-white.
        let rgb = sirius?["colorRgb"] as? [Double] ?? []
        #expect(rgb.count == 3 && rgb[2] >= rgb[0])
        let all = try APIServer.get("/v1/stars").objects("stars")
        #expect(all.count > 8000)
        #expect(Set(all.compactMap { number($0["tier"]) }) == [0, 1, 2, 3])
    }

    @Test("CSV with a header row; named=true keeps named stars only; bad values are 400")
    func csvAndErrors() throws {
        let r = try APIServer.get("/v1/stars?maxMagnitude=1&format=csv")
        #expect(r.header("content-type")?.hasPrefix("text/csv") == true)
        let rows = r.csvRows
        #expect(rows.first?.contains("name") == true && rows.count > 5)
        let named = try APIServer.get("/v1/stars?named=true").objects("stars")
        #expect(!named.isEmpty && named.allSatisfy { $0["name"] is String })
        for bad in ["maxMagnitude=abc", "maxMagnitude=99", "format=xml", "named=perhaps"] {
            let e = try APIServer.get("/v1/stars?\(bad)")
            #expect(e.status == 400, "\(bad)")
        }
    }
}
