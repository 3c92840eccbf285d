import Testing
@testable import Ephemeris

@Suite("Precession: the fixed FK4/B1950 rotations")
struct PrecessionTests {
    /// SPICE's own matrices (CSPICE N0067 through spiceypy 8.3.0, no kernel loaded):
    ///
    ///     python3 scripts/make-b1950-reference.py
    ///
    /// which prints `spiceypy.pxform('J2000', 'B1950', 0.0)` and `pxform('J2000', 'ECLIPB1950', 0.0)`.
    static let spiceJ2000ToB1950 = Matrix3(
        rows: Vector3(0.9999257079523629, 0.01117893812642769, 0.0048590038414544285),
        Vector3(-0.011178938137770135, 0.9999375133499887, -2.7157926258510777e-05),
        Vector3(-0.00485900381535927, -2.716259471424704e-05, 0.9999881946023742))
    static let spiceJ2000ToEclipticB1950 = Matrix3(
        rows: Vector3(0.9999257079523629, 0.01117893812642769, 0.0048590038414544285),
        Vector3(-0.012189277138214924, 0.9173688178789828, 0.3978515722052201),
        Vector3(-9.940500920351154e-06, -0.3978812427417045, 0.9174369278459982))

    static func largestDifference(_ a: Matrix3, _ b: Matrix3) -> Double {
        [a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2].map { max(abs($0.x), abs($0.y), abs($0.z)) }.max()!
    }

    @Test("J2000 → B1950 and → ecliptic of B1950 are SPICE's matrices to 1e-15, and rotate back")
    func againstSPICE() {
        #expect(Self.largestDifference(Precession.equatorialJ2000ToB1950, Self.spiceJ2000ToB1950) < 1e-15)
        #expect(Self.largestDifference(Precession.equatorialJ2000ToEclipticB1950, Self.spiceJ2000ToEclipticB1950) < 1e-15)
        for m in [Precession.equatorialJ2000ToB1950, Precession.equatorialJ2000ToEclipticB1950] {
            #expect(Self.largestDifference(m * m.transposed, .identity) < 1e-15)
        }
        // Precession carries the equinox west, so B1950's lies 0.64° east of J2000's, at RA +0.64°
        // in J2000 (a sign slip would put it at −0.64°).
        let equinox = Precession.equatorialJ2000ToB1950.transposed * Vector3(1, 0, 0)
        #expect(equinox.y > 0.011 && equinox.y < 0.0112)
    }
}
