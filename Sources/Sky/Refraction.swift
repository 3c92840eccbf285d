import Glibc
import Ephemeris

/// Atmospheric refraction: Bennett (1982) for an apparent altitude, scaled for temperature and
/// pressure (Meeus, *Astronomical Algorithms*, eq. 16.4), turned into a true → apparent
/// correction by iterating, as Skyfield does. Nothing is added below −1° or above 89.9°.
public enum Refraction {
    /// Refraction in degrees for an apparent altitude in degrees.
    public static func refractionDeg(apparentAltitudeDeg h: Double, temperatureC: Double, pressureHPa: Double) -> Double {
        guard h >= -1, h <= 89.9 else { return 0 }
        let r = 1.0 / 60 / tan((h + 7.31 / (h + 4.4)) * Angle.radiansPerDegree)
        return r * (pressureHPa / 1010) * (283 / (273 + temperatureC))
    }

    /// The apparent (refracted) altitude of a body at true (airless) altitude `h`, degrees.
    public static func apparentAltitudeDeg(trueAltitudeDeg h: Double, temperatureC: Double, pressureHPa: Double) -> Double {
        var apparent = h
        for _ in 0..<20 {
            let next = h + refractionDeg(apparentAltitudeDeg: apparent, temperatureC: temperatureC, pressureHPa: pressureHPa)
            if abs(next - apparent) < 1e-9 { return next }
            apparent = next
        }
        return apparent
    }
}
