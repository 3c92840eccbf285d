import Foundation
import Testing
@testable import Ephemeris

/// Heights above a spheroid, checked where the answer is known in closed form: on the equator
/// and over the poles, and for a point placed by its geodetic latitude and height (the round trip).
@Suite struct BodyShapeTests {
    let pole = Vector3(0, 0, 1)

    @Test func equatorAndPoles() throws {
        let saturn = try #require(BodyShape.of(.saturn))
        #expect(abs(saturn.altitudeKm(of: Vector3(61_268, 0, 0), pole: pole) - 1_000) < 1e-6)
        #expect(abs(saturn.altitudeKm(of: Vector3(0, 0, 55_364), pole: pole) - 1_000) < 1e-6)
        #expect(abs(saturn.altitudeKm(of: Vector3(0, 0, -54_364), pole: pole)) < 1e-6)
        // Inside is negative.
        #expect(abs(saturn.altitudeKm(of: Vector3(0, 50_268, 0), pole: pole) + 10_000) < 1e-6)
    }

    /// A point at geodetic latitude φ and height h: (N + h) cos φ, (N(1 − e²) + h) sin φ.
    @Test(arguments: [-80.0, -45, -10, 0.5, 30, 66, 89.9])
    func roundTrip(latitudeDeg: Double) throws {
        for body in [BodyID.jupiter, .saturn, .earth, .iapetus] {
            let shape = try #require(BodyShape.of(body))
            let a = shape.equatorialRadiusKm, c = shape.polarRadiusKm
            let e2 = 1 - c * c / (a * a)
            let phi = latitudeDeg * .pi / 180
            let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            for h in [0.0, 352, 4_200, 100_000] {
                let r = Vector3((n + h) * cos(phi), 0, (n * (1 - e2) + h) * sin(phi))
                // Any pole direction: turn the point and the pole together.
                let tilt = Matrix3.rotationX(0.4)
                let height = shape.altitudeKm(of: tilt * r, pole: tilt * pole)
                #expect(abs(height - h) < 1e-6, "\(body) φ \(latitudeDeg) h \(h): \(height)")
            }
        }
    }

    @Test func sphereIsDistanceMinusRadius() throws {
        let ganymede = try #require(BodyShape.of(.ganymede))
        #expect(abs(ganymede.altitudeKm(of: Vector3(1_000, 2_000, 3_000), pole: pole) - (Vector3(1_000, 2_000, 3_000).length - 2_631.2)) < 1e-9)
    }
}
