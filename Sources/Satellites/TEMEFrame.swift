import Glibc
import Ephemeris

/// SGP4's output frame, TEME ("true equator, mean equinox"), and the rotations out of it.
///
/// TEME's z is the true (nutated) pole of date and its x the mean equinox of date as the
/// reference code's sidereal time sees it (Vallado et al. 2006, §6 and Appendix C). So:
/// - TEME → true of date (TOD): about z by the equation of the equinoxes, Δψ cos ε (IAU 1980
///   nutation, without the 1997 kinematic terms, which are under 3 mas);
/// - TOD → mean of date: the IAU 1980 nutation matrix transposed;
/// - mean of date → J2000 mean equator and equinox: IAU 1976 precession (Lieske 1977) transposed.
/// The result is treated as ICRF (the ~20 mas frame bias, under 1 m at the ISS, is ignored, as the
/// house's DE kernels' ICRF-to-ecliptic rotation does). ITRF (Earth-fixed, pseudo) is TEME rotated
/// by GMST 1982 about z, without polar motion, with UT1 taken as UTC (|UT1 − UTC| < 0.9 s: up to
/// 0.4 km along the equator in the ground track).
public enum TEMEFrame {
    /// Greenwich mean sidereal time (IAU 1982, Aoki et al. 1982; the formula of the reference
    /// code's `gstime`) at a UT1 Julian date, radians in [0, 2π).
    public static func gmst1982Radians(jdUT1: Double) -> Double {
        let tut1 = (jdUT1 - 2_451_545.0) / 36_525.0
        let seconds = -6.2e-6 * tut1 * tut1 * tut1 + 0.093104 * tut1 * tut1
            + (876_600.0 * 3600 + 8_640_184.812866) * tut1 + 67_310.54841
        var theta = fmod(seconds * (Double.pi / 180) / 240.0, 2 * Double.pi)
        if theta < 0 { theta += 2 * Double.pi }
        return theta
    }

    /// The rotation taking TEME of date to ICRF (J2000 mean equator and equinox) at `jdTT`.
    public static func temeToICRF(jdTT: Double) -> Matrix3 {
        let t = (jdTT - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let nutation = Nutation1980.angles(julianCenturiesTT: t)
        let equationOfEquinoxes = nutation.longitudeRadians * cos(nutation.meanObliquityRadians)
        // Right ascensions in TOD exceed TEME's by the equation of the equinoxes (GAST − GMST).
        let temeToTOD = Matrix3.rotationZ(equationOfEquinoxes)
        let todToMOD = nutation.meanToTrue.transposed
        let modToJ2000 = precession1976(julianCenturiesTT: t).transposed
        return modToJ2000 * (todToMOD * temeToTOD)
    }

    /// The rotation taking TEME to the Earth-fixed frame (pseudo-ITRF: no polar motion) at a UT1
    /// Julian date given in two parts.
    public static func temeToEarthFixed(jdUT1Whole: Double, jdUT1Fraction: Double) -> Matrix3 {
        let tut1 = ((jdUT1Whole - 2_451_545.0) + jdUT1Fraction) / 36_525.0
        let seconds = -6.2e-6 * tut1 * tut1 * tut1 + 0.093104 * tut1 * tut1
            + (876_600.0 * 3600 + 8_640_184.812866) * tut1 + 67_310.54841
        let theta = fmod(seconds * (Double.pi / 180) / 240.0, 2 * Double.pi)
        // The Earth-fixed x axis lies GMST east of the mean equinox: the frame turns by +θ.
        return Matrix3.rotationZ(-theta)
    }

    /// IAU 1976 precession (Lieske et al. 1977): the rotation from J2000 mean equator and equinox
    /// to the mean equator and equinox of date, `t` Julian centuries of TT from J2000.
    public static func precession1976(julianCenturiesTT t: Double) -> Matrix3 {
        let arcsec = Angle.radiansPerArcsecond
        let zeta = (2306.2181 * t + 0.30188 * t * t + 0.017998 * t * t * t) * arcsec
        let z = (2306.2181 * t + 1.09468 * t * t + 0.018203 * t * t * t) * arcsec
        let theta = (2004.3109 * t - 0.42665 * t * t - 0.041833 * t * t * t) * arcsec
        // P = R3(−z) R2(θ) R3(−ζ) with R the frame (passive) rotations; Matrix3's are active.
        return Matrix3.rotationZ(z) * Matrix3.rotationY(-theta) * Matrix3.rotationZ(zeta)
    }
}
