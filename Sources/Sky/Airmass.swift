import Glibc
import Ephemeris

/// Relative optical airmass and visual extinction for a site on the Earth.
///
/// - Airmass: Kasten & Young (1989, *Applied Optics* 28, 4735), X = 1 / (sin h + 0.50572
///   (h + 6.07995°)^−1.6364) for the apparent (refracted) altitude h: the relative airmass of
///   the centre, 1 at the zenith, 38 at the horizon.
/// - Extinction: Green (1992, *International Comet Quarterly* 14, 55), the V-band coefficient
///   k = 0.1451 e^(−H/7.996 km) (Rayleigh) + 0.120 e^(−H/1.5 km) (aerosols) + 0.016 (ozone) for a
///   site H km above sea level, times the airmass.
public enum Airmass {
    /// The largest airmass given (the horizon's, where Kasten & Young's formula ends).
    public static let horizonAirmass = 38.0

    /// Relative airmass at apparent altitude `h` degrees; nil below the horizon.
    public static func relative(apparentAltitudeDeg h: Double) -> Double? {
        guard h.isFinite, h >= 0 else { return nil }
        let x = 1 / (sin(h * Angle.radiansPerDegree) + 0.50572 * pow(h + 6.07995, -1.6364))
        return min(x, horizonAirmass)
    }

    /// Visual extinction coefficient, magnitudes per airmass, at `heightKm` above sea level.
    public static func extinctionCoefficient(heightKm: Double) -> Double {
        let h = max(heightKm, 0)
        return 0.1451 * exp(-h / 7.996) + 0.120 * exp(-h / 1.5) + 0.016
    }
}
