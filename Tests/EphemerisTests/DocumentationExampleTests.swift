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

    @Test("the moons' theories at JD 2461001.5 TDB: distances as the docstrings give them")
    func moonDistances() {
        let jd = 2_461_001.5
        let io = GalileanMoons.planetocentricPositionsKm(jdTDB: jd).io.length
        #expect(abs(io - 421_700) < 2_000, "Io \(io) km")          // a = 421,700 km, e·a ≈ 1,700 km
        let titan = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd).titan.length
        #expect(abs(titan - 1_220_000) < 40_000, "Titan \(titan) km")   // a = 1,221,900 km, e·a ≈ 35,000 km
        let moon = LunarTheory.geocentricPositionKm(jdTDB: jd).length
        #expect((363_000...406_000).contains(moon), "Moon \(moon) km")
        let phobos = MartianMoons.planetocentricPositionKm(.phobos, jdTDB: jd).length
        #expect((9_235...9_517).contains(phobos), "Phobos \(phobos) km")
    }
}
