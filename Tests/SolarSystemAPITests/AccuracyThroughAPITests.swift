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
        for c in Self.cases {
            let r = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=\(Self.bounds.keys.sorted().joined(separator: ","))")
            #expect(r.status == 200)
            for b in r.objects("bodies") {
                guard let id = b["id"] as? String, let p = vector(b["position"]), let truth = c.heliocentric[id], let bound = Self.bounds[id] else { continue }
                let err = p.angle(to: truth) * 180 / .pi * 3600
                #expect(err <= bound, "\(id) at \(c.utc): \(err)″")
            }
            let moon = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=moon&center=earth&units=km").objects("bodies")[0]
            guard let m = vector(moon["position"]) else { Issue.record("moon"); continue }
            #expect(m.angle(to: c.moonKm) * 180 / .pi * 3600 <= 30, "Moon at \(c.utc)")
            #expect(abs(m.length - c.moonKm.length) <= 50, "Moon at \(c.utc)")
        }
    }
}
