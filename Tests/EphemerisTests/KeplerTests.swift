import Foundation
import Testing
@testable import Ephemeris

@Suite struct KeplerTests {
    static let eccentricities: [Double] = [0, 1e-4, 0.0151, 0.1, 0.25, 0.5, 0.8, 0.9, 0.97, 0.99]

    @Test(arguments: eccentricities)
    func roundTripRecoversTheMeanAnomaly(e: Double) {
        for step in -200...200 {
            let M = Double(step) / 200 * Double.pi
            let E = Kepler.solve(meanAnomaly: M, eccentricity: e)
            #expect(E.isFinite)
            #expect(abs(Kepler.meanAnomaly(eccentricAnomaly: E, eccentricity: e) - M) <= 1e-12,
                    "e = \(e), M = \(M): E = \(E)")
        }
    }

    @Test func circularOrbitIsTheIdentity() {
        for M in stride(from: -3.0, through: 3.0, by: 0.37) {
            #expect(Kepler.solve(meanAnomaly: M, eccentricity: 0) == M)
        }
    }

    @Test func meeusExample30a() {
        // Meeus, Astronomical Algorithms, example 30.a: e = 0.1, M = 5° → E = 5.554589°.
        let E = Kepler.solve(meanAnomaly: 5 * Angle.radiansPerDegree, eccentricity: 0.1)
        #expect(abs(E * Angle.degreesPerRadian - 5.554_589) < 1e-6)
    }

    @Test func quarterEccentricityKnownPoint() {
        // e = 0.25, E = π/2 gives M = π/2 − 0.25 exactly; solving must return π/2.
        let E = Kepler.solve(meanAnomaly: Double.pi / 2 - 0.25, eccentricity: 0.25)
        #expect(abs(E - Double.pi / 2) <= 1e-12)
    }

    @Test(arguments: eccentricities)
    func halfTurnIsAFixedPoint(e: Double) {
        let plus = Kepler.solve(meanAnomaly: Double.pi, eccentricity: e)
        let minus = Kepler.solve(meanAnomaly: -Double.pi, eccentricity: e)
        #expect(abs(plus - Double.pi) <= 1e-15)
        #expect(abs(minus + Double.pi) <= 1e-15)
        // And just inside the half turn, where 1 − e·cos E is largest and the root hugs π.
        let near = Kepler.solve(meanAnomaly: Double.pi - 1e-9, eccentricity: e)
        #expect(abs(Kepler.meanAnomaly(eccentricAnomaly: near, eccentricity: e) - (Double.pi - 1e-9)) <= 1e-12)
        #expect(near <= Double.pi)
    }

    @Test(arguments: [0.25, 0.9])
    func hugeMeanAnomaliesAreReducedIntoTheSameRevolution(e: Double) {
        for turns in [1.0, -1.0, 1e3, -1e3, 1e5, -1e5] {
            let reduced = 0.7
            let M = reduced + 2 * Double.pi * turns
            let E = Kepler.solve(meanAnomaly: M, eccentricity: e)
            let E0 = Kepler.solve(meanAnomaly: reduced, eccentricity: e)
            // Same point on the ellipse…
            #expect(abs(sin(E) - sin(E0)) < 1e-9 && abs(cos(E) - cos(E0)) < 1e-9, "turns = \(turns)")
            // …and in the revolution of M, not of the reduced angle.
            #expect(abs(E - M) <= e + 1e-9)
            #expect(abs(Kepler.meanAnomaly(eccentricAnomaly: E, eccentricity: e) - M) < 1e-9)
        }
    }

    @Test func nonFiniteInputPassesThroughWithoutTrapping() {
        #expect(Kepler.solve(meanAnomaly: .nan, eccentricity: 0.1).isNaN)
        #expect(Kepler.solve(meanAnomaly: .infinity, eccentricity: 0.1) == .infinity)
    }

    @Test func trueAnomaly() {
        // e = 0.5, E = 90°: tan(ν/2) = √3 → ν = 120°.
        let nu = Kepler.trueAnomaly(eccentricAnomaly: Double.pi / 2, eccentricity: 0.5)
        #expect(abs(nu - 2 * Double.pi / 3) < 1e-14)
        // Circular: ν = E, in the revolution of E.
        #expect(abs(Kepler.trueAnomaly(eccentricAnomaly: 7.0, eccentricity: 0) - 7.0) < 1e-14)
        #expect(abs(Kepler.trueAnomaly(eccentricAnomaly: -2.5, eccentricity: 0.3) + 2.5) < 0.5)
    }
}
