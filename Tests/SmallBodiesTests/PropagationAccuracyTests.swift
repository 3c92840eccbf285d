import Foundation
import Testing
import Ephemeris
@testable import SmallBodies

/// The propagator against JPL: Horizons' vectors for Ceres, and the close-approach tables JPL
/// computed from the same solutions it gives the elements of (SBDB `ca_data`).
@Suite("Small bodies against JPL", .serialized)
struct PropagationAccuracyTests {
    struct Approach {
        let body: String
        let jdTDB: Double
        let distanceAU: Double
        let minAU: Double
        let maxAU: Double
    }

    /// The SBDB answer's close-approach table.
    static func table(_ file: String) -> [Approach] {
        let d = Fixtures.json(file)
        return ((d["ca_data"] as? [[String: Any]]) ?? []).compactMap { row in
            guard let body = row["body"] as? String, let jd = (row["jd"] as? String).flatMap(Double.init),
                  let dist = (row["dist"] as? String).flatMap(Double.init), let lo = (row["dist_min"] as? String).flatMap(Double.init),
                  let hi = (row["dist_max"] as? String).flatMap(Double.init) else { return nil }
            return Approach(body: body, jdTDB: jd, distanceAU: dist, minAU: lo, maxAU: hi)
        }
    }

    /// How far JPL's force model (DE431, SB431-N16) and this one (DE440, the loaded SB441-N16
    /// asteroids) may place the same body apart over the observed arc, km.
    static let modelDifferenceKm = 0.2

    static let centers: [String: BodyID] = ["Earth": .earth, "Moon": .moon, "Venus": .venus, "Mars": .mars, "Juptr": .jupiter, "Merc": .mercury]

    /// Our approach nearest the listed one (same centre, within two days).
    static func match(_ a: Approach, in path: ChunkedPath, options: ForceOptions = ForceOptions()) -> CloseApproach? {
        guard let center = centers[a.body] else { return nil }
        let t = Fixtures.seconds(jdTDB: a.jdTDB)
        return CloseApproachSearch.find(path, center: center, from: t - 2 * 86_400, to: t + 2 * 86_400, maxDistanceKm: 2 * a.distanceAU * Constants.auKm,
                                        kernel: Fixtures.kernel).min { abs($0.seconds - t) < abs($1.seconds - t) }
    }

    @Test("Ceres from its SBDB elements (2018) within 100 km of Horizons' 2022 vectors")
    func ceres() throws {
        let text = String(decoding: Fixtures.bytes("jplhorizons-ceres_vectors_range.txt"), as: UTF8.self)
        let rows = text.components(separatedBy: "$$SOE")[1].components(separatedBy: "$$EOE")[0].split(separator: "\n")
        let ceres = Fixtures.body("ceres")
        var worst = 0.0
        for row in rows {
            let f = row.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let jd = try #require(Double(f[0]))
            let horizons = Vector3(Double(f[2])!, Double(f[3])!, Double(f[4])!) * Constants.auKm
            let ours = try Fixtures.propagator.heliocentricState(ceres, atSeconds: Fixtures.seconds(jdTDB: jd)).positionKm
            worst = max(worst, (ours - horizons).length)
        }
        print("Ceres vs Horizons 2022-06-10 … 07-10 (\(rows.count) vectors): worst \(worst) km")
        #expect(rows.count == 4)
        #expect(worst < km(100))
    }

    @Test("Apophis 2029-04-13: within a minute and 1 % of JPL's table; the other approaches within their 3-sigma bounds")
    func apophis() throws {
        let apophis = Fixtures.body("apophis")
        let table = Self.table("jplsbdb-apophis.dat").filter { Fixtures.kernel.spanJDTDB.contains($0.jdTDB) }
        let first = Fixtures.seconds(jdTDB: table.first!.jdTDB) - 86_400, last = Fixtures.seconds(jdTDB: table.last!.jdTDB) + 86_400
        let path = try Fixtures.propagator.path(apophis, from: first, to: last)
        var checked = 0, outside: [String] = [], beyondModel: [String] = []
        for a in table {
            let ours = try #require(Self.match(a, in: path), "no approach to \(a.body) near JD \(a.jdTDB)")
            let dt = ours.seconds - Fixtures.seconds(jdTDB: a.jdTDB)
            let d = ours.distanceKm / Constants.auKm
            if a.jdTDB > 2_462_240 && a.jdTDB < 2_462_241 {
                print("Apophis 2029-04-13 Earth: Δt \(dt) s, distance \(d) AU (JPL \(a.distanceAU)), \(100 * (d / a.distanceAU - 1)) %")
                #expect(abs(dt) < minutes(1))
                #expect(abs(d / a.distanceAU - 1) < 0.01)
            }
            if d < a.minAU || d > a.maxAU { outside.append("JD \(a.jdTDB) \(a.body): \(d) AU outside \(a.minAU)…\(a.maxAU)") }
            // Inside the observed arc (2004–2015) the 3-sigma band shrinks to tens of metres,
            // below what JPL's DE431 + 16 asteroids and DE440 + the loaded ones can agree on:
            // there the band is widened by the 0.2 km the two models differ by.
            let model = Self.modelDifferenceKm / Constants.auKm
            if d < a.minAU - model || d > a.maxAU + model { beyondModel.append("JD \(a.jdTDB) \(a.body): \(d) AU") }
            checked += 1
        }
        print("Apophis: \(checked) approaches 1905–2100 compared; outside their 3-sigma bounds: \(outside.count) \(outside)")
        #expect(checked == table.count && checked > 70)
        #expect(beyondModel.isEmpty, "\(beyondModel)")
        #expect(outside.count <= 1)
    }

    @Test("67P from its 2010 solution with non-gravitational terms: Earth 2021-11-12, Jupiter 2018-11-11 and 2030-01-29 within a minute; without them, far off")
    func churyumovGerasimenko() throws {
        let comet = Fixtures.body("sb:67p")
        let table = Self.table("jplsbdb-67P.dat")
        let wanted = table.filter { [2_458_434, 2_459_530, 2_462_531].contains(Int($0.jdTDB)) }
        #expect(wanted.count == 3)
        for options in [ForceOptions(), ForceOptions(nonGravitational: false)] {
            let path = try Fixtures.propagator.path(comet, from: Fixtures.seconds(jdTDB: 2_458_430), to: Fixtures.seconds(jdTDB: 2_462_535), options: options)
            var worst = 0.0
            for a in wanted {
                let ours = try #require(Self.match(a, in: path))
                let dt = ours.seconds - Fixtures.seconds(jdTDB: a.jdTDB)
                print("67P \(options.nonGravitational ? "with" : "without") non-gravs, \(a.body) JD \(a.jdTDB): Δt \(dt) s, \(ours.distanceKm / Constants.auKm) AU (JPL \(a.distanceAU))")
                worst = max(worst, abs(dt))
            }
            // Without them the Jupiter approaches move by 11 and 44 minutes (the Earth one by 50 s
            // and 27,000 km).
            if options.nonGravitational { #expect(worst < minutes(1)) } else { #expect(worst > minutes(10)) }
        }
    }

    @Test("Phaethon 2017-12-16 at 0.068931 AU within a minute and 1 %")
    func phaethon() throws {
        let phaethon = Fixtures.body("sb:3200")
        let a = try #require(Self.table("jplsbdb-phaethon.dat").first { Int($0.jdTDB) == 2_458_104 })
        for options in [ForceOptions(), ForceOptions(nonGravitational: false)] {
            let t = Fixtures.seconds(jdTDB: a.jdTDB)
            let path = try Fixtures.propagator.path(phaethon, from: t - 2 * 86_400, to: t + 2 * 86_400, options: options)
            let ours = try #require(Self.match(a, in: path))
            let dt = ours.seconds - t, d = ours.distanceKm / Constants.auKm
            print("Phaethon \(options.nonGravitational ? "with" : "without") A2: Δt \(dt) s, \(d) AU (JPL \(a.distanceAU)), \(ours.relativeSpeedKmS) km/s")
            if options.nonGravitational {
                #expect(abs(dt) < minutes(1))
                #expect(abs(d / a.distanceAU - 1) < 0.01)
            }
        }
    }
}
