import Testing
@testable import Ephemeris

/// The results the Ephemeris module's documentation states, run as written (Skyfield's habit: a
/// docstring example that states a number is a test). J2000's label is `TimeScaleTests`, the DE
/// kernel's span `SPKKernelTests`.
@Suite("Documentation examples: Ephemeris")
struct EphemerisDocumentationExampleTests {
    @Test("TimeScale.parse: 2026-11-22T00:00:00Z is JD 2461366.5008007 TT (UTC + 37 s + 32.184 s)")
    func timeScaleExample() throws {
        let t = try TimeScale.parse("2026-11-22T00:00:00Z")
        #expect(abs(t.jdTT - 2_461_366.500_800_7) < 1e-7, "\(t.jdTT)")
    }

    /// The docstrings give each distance as the orbit's range (`≈ 1.22 million km`, the Moon's
    /// 363,000…406,000 km), which any date meets. The test holds the example's date to more: the
    /// Moon to DE440 at that instant; the planets' moons (which DE440 does not carry) to the
    /// theories' values there, pinned, inside the orbit's range. SaturnianMoonsTests,
    /// GalileanMoonsTests and MartianMoonsTests hold those theories to JPL's.
    @Test("the moons' theories at JD 2461001.5 TDB: distances as the docstrings give them, and the date's own")
    func moonDistances() {
        let jd = 2_461_001.5
        // Io: a = 421,700 km, e·a ≈ 1,700 km.
        let io = GalileanMoons.planetocentricPositionsKm(jdTDB: jd).io.length
        #expect(abs(io - 423_065.74) < km(1), "Io \(io) km")
        // Titan: a = 1,221,900 km, e·a ≈ 35,000 km; at this date near its greatest distance.
        let titan = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd).titan.length
        #expect(abs(titan - 1_257_270.96) < km(1), "Titan \(titan) km")
        // The Moon: the truncated ELP (Meeus 47) against DE440 at the same TDB instant; measured
        // 0.6 km here (LunarTheoryTests: within 50 km at every reference case).
        let moon = LunarTheory.geocentricPositionKm(jdTDB: jd).length
        let t = TimeScale.instant(tdbSecondsPastJ2000: (jd - Constants.jdJ2000) * Constants.secondsPerDay)
        let de440 = (TestEngine.served.state(.moon, at: t).positionAU - TestEngine.served.state(.earth, at: t).positionAU).length * Constants.auKm
        #expect(abs(de440 - 405_538.0) < km(1), "DE440's Moon \(de440) km") // the kernel as read
        #expect(abs(moon - de440) < km(5), "Moon \(moon) km, DE440 \(de440) km")
        // Phobos: 9,235…9,517 km (periapsis…apoapsis).
        let phobos = MartianMoons.planetocentricPositionKm(.phobos, jdTDB: jd).length
        #expect(abs(phobos - 9_458.17) < km(1), "Phobos \(phobos) km")
    }

    @Test("EvenlySampled: a cubic sampled every 2 is read exactly between the samples; past the last sample is nil")
    func evenlySampledExample() {
        let cubes = EvenlySampled(first: 0, step: 2, values: [0, 8, 64, 216, 512, 1000])
        #expect(abs((cubes.value(at: 7) ?? .nan) - 343) < 1e-9)
        #expect(cubes.value(at: 16) == nil)
    }

    @Test("TimeScale.deltaT(julianYear: 1969.55) is 39.745 s, as its docstring says")
    func deltaTExample() {
        let v = TimeScale.deltaT(julianYear: 1969.55)
        #expect(abs(v - 39.745) < 0.0005, "\(v)")
    }
}
