import Glibc
import Ephemeris

/// Visual magnitudes: the planets by Mallama & Hilton (2018, *Astronomy and Computing* 25, 10,
/// "Computing apparent planetary magnitudes for The Astronomical Almanac"), the Moon by Allen's
/// phase law (*Astrophysical Quantities*, 3rd ed.), the Sun at V = −26.74 at 1 AU, Pluto at
/// H = −1.01 without a phase term. Nil for the moons of other planets.
public enum Photometry {
    /// `r` Sun–body and `d` observer–body distances in AU, `phaseDeg` the phase angle,
    /// `subLatitudesDeg` the planetocentric latitudes of the sub-solar and sub-observer points
    /// (Saturn's ring opening, Uranus's pole), `year` for Neptune's brightening.
    public static func magnitude(_ body: BodyID, sunDistanceAU r: Double, observerDistanceAU d: Double, phaseDeg a: Double,
                                 subLatitudesDeg: (sun: Double, observer: Double) = (0, 0), year: Double = 2000) -> Double? {
        let distance = 5 * log10(r * d)
        switch body {
        case .sun:
            return -26.74 + 5 * log10(d)
        case .moon:
            return 0.21 + distance + 0.026 * a + 4.0e-9 * pow(a, 4)
        case .mercury:
            return distance + poly(a, [-0.613, 6.328e-2, -1.6336e-3, 3.3644e-5, -3.4265e-7, 1.6893e-9, -3.0334e-12])
        case .venus:
            if a < 163.7 { return distance + poly(a, [-4.384, -1.044e-3, 3.687e-4, -2.814e-6, 8.938e-9]) }
            return distance + poly(a, [236.05828, -2.81914, 8.39034e-3])
        case .mars:
            if a <= 50 { return distance + poly(a, [-1.601, 2.267e-2, -1.302e-4]) }
            return distance + poly(a, [-0.367, -0.02573, 3.445e-4])
        case .jupiter:
            if a <= 12 { return distance + poly(a, [-9.395, -3.7e-4, 6.16e-4]) }
            let x = a / 180
            return distance - 9.428 - 2.5 * log10(1 - 1.507 * x - 0.363 * x * x - 0.062 * pow(x, 3) + 2.809 * pow(x, 4) - 1.876 * pow(x, 5))
        case .saturn:
            // The rings' opening: the geometric mean of the two latitudes, zero when the Sun and
            // the observer see opposite faces (Mallama & Hilton eq. 10).
            let product = subLatitudesDeg.sun * subLatitudesDeg.observer
            let tilt = product > 0 ? product.squareRoot() : 0
            if a <= 6.5, tilt <= 27 {
                let sb = sin(tilt * Angle.radiansPerDegree)
                return distance - 8.914 - 1.825 * sb + 0.026 * a - 0.378 * sb * exp(-2.25 * a)
            }
            return distance + poly(a, [-8.94, 2.446e-4, 2.672e-4, -1.505e-6, 4.767e-9])
        case .uranus:
            let latitude = (abs(subLatitudesDeg.sun) + abs(subLatitudesDeg.observer)) / 2
            return distance - 7.110 - 8.4e-4 * latitude + (a > 3.1 ? 6.587e-3 * a + 1.045e-4 * a * a : 0)
        case .neptune:
            let base = year >= 2000 ? -7.00 : year >= 1980 ? -6.89 - 0.0054 * (year - 1980) : -6.89
            return distance + base + 7.944e-3 * a + 9.617e-5 * a * a
        case .pluto:
            return distance - 1.01
        case .earth, .iss, .phobos, .deimos, .io, .europa, .ganymede, .callisto,
             .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
            return nil
        }
    }

    private static func poly(_ x: Double, _ c: [Double]) -> Double {
        var r = 0.0
        for v in c.reversed() { r = r * x + v }
        return r
    }
}
