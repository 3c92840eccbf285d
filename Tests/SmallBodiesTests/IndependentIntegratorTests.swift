import Foundation
import Testing
import Ephemeris
@testable import SmallBodies

/// The propagator against an independent integration of the same force model
/// (`scripts/make-smallbody-fixtures.py`: scipy's DOP853 on DE440), over ±20 years from each
/// body's element epoch.
@Suite("Small bodies against an independent integrator", .serialized)
struct IndependentIntegratorTests {
    struct Reference: Decodable {
        struct Body: Decodable {
            let id: String
            let epochJDTDB: Double
            let samples: [[Double]]
        }
        let generator: String
        let bodies: [Body]
    }

    static let reference: Reference = {
        do { return try JSONDecoder().decode(Reference.self, from: Data(Fixtures.bytes("reference-trajectories.json"))) } catch {
            fatalError("reference-trajectories.json: \(error)")
        }
    }()

    static let ids = ["ceres": "ceres", "apophis": "apophis", "67p": "sb:67p", "phaethon": "sb:3200"]

    @Test("within 1 km of scipy's DOP853 over ±20 years", arguments: ["ceres", "apophis", "67p", "phaethon"])
    func agrees(_ name: String) throws {
        let ref = try #require(Self.reference.bodies.first { $0.id == name })
        let body = Fixtures.body(try #require(Self.ids[name]))
        #expect(body.elements.epochJDTDB == ref.epochJDTDB)
        var worst = (km: 0.0, jd: 0.0)
        for s in ref.samples {
            let ours = try Fixtures.propagator.heliocentricState(body, atSeconds: Fixtures.seconds(jdTDB: s[0])).positionKm
            let d = (ours - Vector3(s[1], s[2], s[3])).length
            if d > worst.km { worst = (d, s[0]) }
        }
        print("\(name) vs independent integrator: \(ref.samples.count) samples over ±20 years, worst \(worst.km) km at JD \(worst.jd)")
        #expect(ref.samples.count > 250)
        #expect(worst.km < km(1))
    }
}
