import Foundation
import Testing
import Ephemeris
@testable import Satellites

@Suite struct GeodeticTests {
    /// Geodetic → Earth-fixed by the closed form, then back through the iteration.
    static func earthFixed(latDeg: Double, lonDeg: Double, hKm: Double) -> Vector3 {
        let a = SGP4Constants.wgs84RadiusKm, f = SGP4Constants.wgs84Flattening, e2 = f * (2 - f)
        let lat = latDeg * Angle.radiansPerDegree, lon = lonDeg * Angle.radiansPerDegree
        let n = a / (1 - e2 * sin(lat) * sin(lat)).squareRoot()
        return Vector3((n + hKm) * cos(lat) * cos(lon), (n + hKm) * cos(lat) * sin(lon), (n * (1 - e2) + hKm) * sin(lat))
    }

    @Test(arguments: [(0.0, 0.0, 0.0), (51.6, -120.5, 420.0), (-89.99, 45.0, 800.0), (89.9999, 10.0, 35_786.0), (-33.9, 151.2, 0.05)])
    func roundTrip(_ point: (Double, Double, Double)) {
        let g = Geodetic(earthFixedKm: Self.earthFixed(latDeg: point.0, lonDeg: point.1, hKm: point.2))
        #expect(abs(g.latitudeDeg - point.0) < 1e-9)
        #expect(abs(g.longitudeDeg - point.1) < 1e-9)
        #expect(abs(g.altitudeKm - point.2) < 1e-6)
    }

    @Test func illuminationBehindTheEarthIsUmbraAndBesideItSunlit() {
        let sun = Vector3(149_597_870.7, 0, 0)
        #expect(SGP4.illumination(satelliteKm: Vector3(-6_800, 0, 0), sunKm: sun) == .umbra)
        #expect(SGP4.illumination(satelliteKm: Vector3(0, 6_800, 0), sunKm: sun) == .sunlit)
        #expect(SGP4.illumination(satelliteKm: Vector3(6_800, 0, 0), sunKm: sun) == .sunlit)
        // Grazing the shadow's edge: the Earth's limb splits the solar disc.
        let edge = Vector3(-6_800, 6_378.137 * 1.0005, 0)
        #expect(SGP4.illumination(satelliteKm: edge, sunKm: sun) == .penumbra)
    }
}
