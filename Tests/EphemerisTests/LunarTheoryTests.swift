import Foundation
import Testing
@testable import Ephemeris

/// Distances in named units (STYLE.md); `arcseconds` lives in ReferenceFixture.swift.
fileprivate func kmPerDay(_ v: Double) -> Double { v }

@Suite struct LunarTheoryTests {
    @Test func tablesHaveEveryRowOfTheBook() {
        #expect(LunarTheory.longitudeDistanceTerms.count == 60) // table 47.A
        #expect(LunarTheory.latitudeTerms.count == 60) // table 47.B
        // Spot rows: first and last of each table as printed.
        let a0 = LunarTheory.longitudeDistanceTerms[0]
        #expect(a0.mPrime == 1 && a0.sine == 6_288_774 && a0.cosine == -20_905_355)
        let aLast = LunarTheory.longitudeDistanceTerms[59]
        #expect(aLast.d == 2 && aLast.mPrime == -1 && aLast.f == -2 && aLast.sine == 0 && aLast.cosine == 8_752)
        #expect(LunarTheory.latitudeTerms[0].sine == 5_128_122)
        #expect(LunarTheory.latitudeTerms[59].sine == 107)
        // The evaluator precomputes multiples −4…4 of each argument; no row may ask for more.
        for t in LunarTheory.longitudeDistanceTerms + LunarTheory.latitudeTerms {
            #expect(abs(t.d) <= 4 && abs(t.m) <= 2 && abs(t.mPrime) <= 4 && abs(t.f) <= 4)
        }
    }

    @Test func meeusExample47a() {
        // Meeus, Astronomical Algorithms, example 47.a: 1992 April 12, 0h TD (JDE 2448724.5).
        let s = LunarTheory.eclipticOfDate(jdTDB: 2_448_724.5)
        #expect(abs(s.longitudeDeg - 133.162_655) < 1e-6)
        #expect(abs(s.latitudeDeg - -3.229_126) < 1e-6)
        #expect(abs(s.distanceKm - 368_409.7) < km(0.05))
    }

    @Test func matchesDE440OverEveryFixtureCase() {
        var worstAngle = 0.0, worstAngleDate = ""
        var worstDistance = 0.0, worstDistanceDate = ""
        for c in ReferenceFixture.shared.cases {
            let ours = LunarTheory.geocentricPositionKm(jdTDB: c.jd_tdb)
            let truth = c.geocentricMoonKm
            let angle = ours.angle(to: truth)
            let distance = abs(ours.length - truth.length)
            #expect(angle <= arcseconds(30), "\(c.utc): \(Angle.arcseconds(angle))″")
            #expect(distance <= km(50), "\(c.utc): \(distance) km")
            if angle > worstAngle { worstAngle = angle; worstAngleDate = c.utc }
            if distance > worstDistance { worstDistance = distance; worstDistanceDate = c.utc }
        }
        print("LunarTheory vs DE440: max direction \(Angle.arcseconds(worstAngle))″ (\(worstAngleDate)), "
            + "max distance \(worstDistance) km (\(worstDistanceDate))")
    }

    @Test func velocityIsTheDerivativeOfPosition() {
        // Central difference with h = 0.001 d: truncation ≈ h²/6·|r⃛| ≈ 1e-3 km/day. Divide by the
        // step actually taken: Julian dates near 2.45e6 are spaced 4.7e-10 d apart, which would
        // otherwise bias a 0.002 d difference by 2e-7 (0.02 km/day).
        let h = 0.001
        for jd in stride(from: 2_433_282.5, through: 2_488_069.5, by: 1_234.567) {
            let before = jd - h, after = jd + h
            let numeric = (LunarTheory.geocentricPositionKm(jdTDB: after) - LunarTheory.geocentricPositionKm(jdTDB: before)) / (after - before)
            let analytic = LunarTheory.geocentricVelocityKmPerDay(jdTDB: jd)
            // Measured ≈ 0.002 km/day: the h² truncation plus the ecliptic's tilting rate, which the
            // analytic derivative leaves out on purpose.
            #expect((analytic - numeric).length <= kmPerDay(0.01), "jd \(jd): \(analytic) vs \(numeric)")
            let both = LunarTheory.geocentricState(jdTDB: jd)
            #expect(both.velocityKmPerDay == analytic)
            #expect(both.positionKm == LunarTheory.geocentricPositionKm(jdTDB: jd))
        }
    }

    @Test func velocityMatchesDE440() {
        // The fixture's Moon minus Earth heliocentric velocities is the geocentric Moon velocity.
        var worst = 0.0, worstDate = ""
        for c in ReferenceFixture.shared.cases {
            guard let moon = c.heliocentricVelocity("moon"), let earth = c.heliocentricVelocity("earth") else {
                Issue.record("\(c.utc): fixture lacks Moon or Earth velocity"); continue
            }
            let truth = (moon - earth) * Constants.auKm
            let ours = LunarTheory.geocentricVelocityKmPerDay(jdTDB: c.jd_tdb)
            let error = (ours - truth).length
            // ≈ 0.01 % of the Moon's ~88 000 km/day: the series' own truncation, differentiated
            // (measured: 5.1 km/day at worst).
            #expect(error <= kmPerDay(10), "\(c.utc): \(error) km/day")
            if error > worst { worst = error; worstDate = c.utc }
        }
        print("LunarTheory velocity vs DE440: max \(worst) km/day (\(worstDate))")
    }
}
