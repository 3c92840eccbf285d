import Ephemeris
import Foundation
import HTTPTestSupport
import Testing

/// The ephemeris issue's bounds, end to end: the reference cases asked of the live server.
@Suite("Accuracy through the API")
struct AccuracyThroughAPITests {
    /// A spread across the range: every eighth reference case.
    static let cases = stride(from: 0, to: ReferenceCases.all.count, by: 8).map { ReferenceCases.all[$0] }

    static let bounds: [String: Double] = [
        "mercury": 30, "venus": 30, "earth": 30, "mars": 100, "jupiter": 800, "saturn": 800, "uranus": 150, "neptune": 80, "pluto": 80,
    ]

    @Test("planets within the issue's direction bounds; the Moon within 30″ and 50 km")
    func reference() throws {
        #expect(Self.cases.count >= 6)
        var checked = 0
        for c in Self.cases {
            let r = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=\(Self.bounds.keys.sorted().joined(separator: ","))")
            #expect(r.status == 200)
            // Every body asked for must be in the answer, parse, and have a reference value.
            let answered = Dictionary(uniqueKeysWithValues: r.objects("bodies").compactMap { b in (b["id"] as? String).map { ($0, b) } })
            #expect(Set(answered.keys) == Set(Self.bounds.keys), "at \(c.utc)")
            for (id, bound) in Self.bounds {
                let p = try #require(vector(answered[id]?["position"]), "\(id) at \(c.utc): no position")
                let truth = try #require(c.heliocentric[id], "\(id) at \(c.utc): no reference value")
                let err = p.angle(to: truth) * 180 / .pi * 3600
                #expect(err <= bound, "\(id) at \(c.utc): \(err)″")
                checked += 1
            }
            let moon = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=moon&center=earth&units=km").objects("bodies")
            let m = try #require(vector(moon.first?["position"]), "the Moon at \(c.utc): no position")
            #expect(m.angle(to: c.moonKm) * 180 / .pi * 3600 <= 30, "Moon at \(c.utc)")
            #expect(abs(m.length - c.moonKm.length) <= 50, "Moon at \(c.utc)")
            checked += 1
        }
        // Nothing was skipped: every case, every planet and the Moon.
        #expect(checked == Self.cases.count * (Self.bounds.count + 1))
        print("[accuracy] through the API: \(checked) positions checked in \(Self.cases.count) reference cases")
    }
}
