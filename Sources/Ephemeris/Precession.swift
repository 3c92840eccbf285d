import Glibc

/// Frame rotations between the ecliptics and equators of different epochs.
///
/// Ecliptic precession follows Lieske et al. (1977) as given by Meeus, *Astronomical Algorithms*
/// (2nd ed.), eq. 21.5 — adequate to well under an arcsecond over a few centuries from J2000
/// and to tens of arcseconds at ±3000 years.
public enum Precession {
    /// The rotation taking ecliptic coordinates referred to the mean ecliptic and equinox of
    /// `fromJD` into those of `toJD` (both TT/TDB Julian dates).
    ///
    /// ```swift
    /// let m = Precession.ecliptic(fromJD: jdOfDate, toJD: Constants.jdJ2000)
    /// let j2000 = m * ofDate
    /// ```
    public static func ecliptic(fromJD: Double, toJD: Double) -> Matrix3 {
        let T = (fromJD - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let t = (toJD - fromJD) / Constants.daysPerJulianCentury
        let asec = Angle.radiansPerArcsecond
        let eta = ((47.0029 - 0.06603 * T + 0.000598 * T * T) * t
            + (-0.03302 + 0.000598 * T) * t * t + 0.000060 * t * t * t) * asec
        let bigPi = 174.876384 * Angle.radiansPerDegree
            + (3289.4789 * T + 0.60622 * T * T - (869.8089 + 0.50491 * T) * t + 0.03536 * t * t) * asec
        let p = ((5029.0966 + 2.22226 * T - 0.000042 * T * T) * t
            + (1.11113 - 0.000042 * T) * t * t - 0.000006 * t * t * t) * asec
        // Longitudes are counted from the node of the new ecliptic on the old (at Π), tilted by η
        // about that node, then counted again from the new equinox (Π + p).
        return Matrix3.rotationZ(bigPi + p) * Matrix3.rotationX(-eta) * Matrix3.rotationZ(-bigPi)
    }

    /// Mean ecliptic of date → mean ecliptic and equinox of J2000.
    public static func eclipticOfDateToJ2000(jdTT: Double) -> Matrix3 {
        ecliptic(fromJD: jdTT, toJD: Constants.jdJ2000)
    }

    /// ICRF / equatorial J2000 → ecliptic J2000 (rotation about x by the J2000 obliquity).
    public static let equatorialToEclipticJ2000 = Matrix3.rotationX(-Constants.obliquityJ2000Radians)
    /// Ecliptic J2000 → ICRF / equatorial J2000.
    public static let eclipticToEquatorialJ2000 = Matrix3.rotationX(Constants.obliquityJ2000Radians)

    /// ICRF / equatorial J2000 → the FK4 equator and equinox of B1950: SPICE's fixed rotation
    /// between its J2000 and B1950 frames (`pxform('J2000', 'B1950', et)`, any et). SPICE's
    /// [θ]ₖ turns the axes, so each is the active rotation by −θ here.
    public static let equatorialJ2000ToB1950 = Matrix3.rotationZ(-Constants.fk4EulerZ1Arcseconds * Angle.radiansPerArcsecond)
        * Matrix3.rotationY(-Constants.fk4EulerYArcseconds * Angle.radiansPerArcsecond)
        * Matrix3.rotationZ(-Constants.fk4EulerZ2Arcseconds * Angle.radiansPerArcsecond)
    /// ICRF / equatorial J2000 → the ecliptic and equinox of B1950 (SPICE's ECLIPB1950).
    public static let equatorialJ2000ToEclipticB1950 = Matrix3.rotationX(-Constants.obliquityB1950Arcseconds * Angle.radiansPerArcsecond)
        * equatorialJ2000ToB1950
}
