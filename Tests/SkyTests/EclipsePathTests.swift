import Foundation
import Testing
import Ephemeris
@testable import Sky

/// The path against the local computation: the central line where a place's own maximum
/// finds it on the axis; the limits where its central (or partial) eclipse only grazes.
@Suite struct EclipsePathTests {
    static let ids = ["2017-08-21-solar", "2023-10-14-solar", "2024-04-08-solar", "2027-08-02-solar"]

    @Test(arguments: ids) func pathAgreesWithLocalCircumstances(id: String) throws {
        let e = try #require(TestSky.engine.solarEclipse(id: id))
        let path = e.path()
        #expect(path.central.count > 100)
        var worst = (axisKm: 0.0, maximumS: 0.0, limitKm: 0.0, penumbralKm: 0.0)
        let km = SkyConstants.wgs84EquatorialRadiusKm
        for (i, c) in path.central.enumerated() where i % 5 == 0 {
            let o = TestSky.observer(c.place.latitudeDeg, c.place.longitudeDeg, 0)
            let local = try #require(e.seen(from: o))
            let shadow = LocalShadow(e.elements, observer: o)
            let s = shadow.state(SkyEngine.tdbSeconds(local.maximum.instant))
            worst.axisKm = max(worst.axisKm, s.distance * km)
            worst.maximumS = max(worst.maximumS, abs(local.maximum.instant.seconds(since: c.place.instant)))
            #expect(s.distance * km < 1, "\(id) \(c.place.instant.iso8601): \(s.distance * km) km from the axis")
            #expect(local.type != .partial)
        }
        for (curve, umbral) in [(EclipsePath.Curve.northernLimit, true), (.southernLimit, true), (.penumbralNorthernLimit, false), (.penumbralSouthernLimit, false)] {
            let segments = path.curves[curve] ?? []
            #expect(!segments.isEmpty, "\(id): no \(curve)")
            for p in segments.flatMap({ $0 }).enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
                let r = BesselianElements.surface(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)
                // The least of Δ − L over the eclipse: zero on a limit.
                let t0 = SkyEngine.tdbSeconds(p.instant)
                var least = Double.infinity
                for k in -120...120 { least = min(least, e.elements.edgeDistance(r, t0 + Double(k) * 0.5, umbral: umbral)) }
                if umbral { worst.limitKm = max(worst.limitKm, abs(least) * km) } else { worst.penumbralKm = max(worst.penumbralKm, abs(least) * km) }
                #expect(abs(least) * km < 1, "\(id) \(curve) \(p.instant.iso8601): \(least * km) km")
            }
        }
        print("path \(id): \(path.central.count) central points, worst \(worst.axisKm) km from the axis at the local maximum, maximum \(worst.maximumS) s from the point's time; umbral limits \(worst.limitKm) km, penumbral \(worst.penumbralKm) km from grazing")
    }

    /// Across a limit the local central duration falls to zero: 3 km inside it lasts, 3 km
    /// outside there is none.
    @Test func durationFallsToZeroAtTheLimits() throws {
        let e = try #require(TestSky.engine.solarEclipse(id: "2024-04-08-solar"))
        let path = e.path()
        for curve in [EclipsePath.Curve.northernLimit, .southernLimit] {
            let limit = try #require(path.curves[curve]?.max { $0.count < $1.count })
            for p in limit.enumerated().filter({ $0.offset % 20 == 10 }).map(\.element) {
                // The nearest central-line point: inside is toward it.
                let c = try #require(path.central.min { CurveBuilder.separationDeg($0.place, p) < CurveBuilder.separationDeg($1.place, p) })
                let d = CurveBuilder.separationDeg(c.place, p) * 111.2
                func at(_ km: Double) throws -> Double? {
                    let f = km / d
                    let o = TestSky.observer(p.latitudeDeg + (c.place.latitudeDeg - p.latitudeDeg) * f, p.longitudeDeg + (c.place.longitudeDeg - p.longitudeDeg) * f, 0)
                    return try #require(e.seen(from: o)).centralDurationSeconds
                }
                #expect(try at(3) != nil, "\(curve) \(p.instant.iso8601): no totality 3 km inside")
                #expect(try at(-3) == nil, "\(curve) \(p.instant.iso8601): totality 3 km outside")
            }
        }
    }
}
