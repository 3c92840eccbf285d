#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which rotation model serves a body.
public enum RotationModelKind: String, Sendable {
    /// IAU WGCCRE rotational elements (polynomial, plus periodic terms for the Moon and Neptune).
    case iau = "IAU WGCCRE 2015"
    /// Synchronous rotation: the body's +x axis points at its parent, +z along its orbit normal.
    case facesParent = "synchronous: faces its parent"
}

/// IAU WGCCRE rotational elements (Archinal et al. 2018, "Report of the IAU Working Group on
/// Cartographic Coordinates and Rotational Elements: 2015"; 2009 values for the Earth and Moon).
///
/// The polynomial terms come from the catalogue; the periodic terms of the Moon (E1…E13) and
/// Neptune (N), and Pluto's elements (absent from bodies.json), are the report's and live here.
public enum IAURotation {
    /// Pluto (IAU 2015): α0 = 132.993°, δ0 = −6.163°, W = 302.695° + 56.3625225°·d.
    public static let pluto = IAURotationElements(
        poleRADeg: Polynomial1(value: 132.993, ratePerCentury: 0),
        poleDecDeg: Polynomial1(value: -6.163, ratePerCentury: 0),
        primeMeridianDeg: 302.695,
        primeMeridianRateDegPerDay: 56.362_522_5
    )

    /// Pole and prime meridian from the polynomial terms only (what the reference fixture lists).
    public static func polynomial(_ e: IAURotationElements, daysTDB d: Double) -> (ra: Double, dec: Double, w: Double) {
        let T = d / Constants.daysPerJulianCentury
        return (e.poleRADeg.at(T), e.poleDecDeg.at(T), e.primeMeridianDeg + e.primeMeridianRateDegPerDay * d)
    }

    /// Pole and prime meridian including the report's periodic terms for `body`.
    public static func angles(_ body: BodyID, elements e: IAURotationElements, daysTDB d: Double) -> (ra: Double, dec: Double, w: Double) {
        var (ra, dec, w) = polynomial(e, daysTDB: d)
        let T = d / Constants.daysPerJulianCentury
        switch body {
        case .moon:
            let p = moonPeriodic(d: d)
            ra += p.ra
            dec += p.dec
            w += p.w - 1.4e-12 * d * d
        case .neptune:
            let N = (357.85 + 52.316 * T) * Angle.radiansPerDegree
            ra += 0.70 * sin(N)
            dec -= 0.51 * cos(N)
            w -= 0.48 * sin(N)
        default:
            break
        }
        return (ra, dec, w)
    }

    /// The Moon's periodic terms in α0, δ0 and W (degrees), arguments E1…E13 of the report.
    static func moonPeriodic(d: Double) -> (ra: Double, dec: Double, w: Double) {
        let r = Angle.radiansPerDegree
        let E1 = (125.045 - 0.052_992_1 * d) * r
        let E2 = (250.089 - 0.105_984_2 * d) * r
        let E3 = (260.008 + 13.012_000_9 * d) * r
        let E4 = (176.625 + 13.340_715_4 * d) * r
        let E5 = (357.529 + 0.985_600_3 * d) * r
        let E6 = (311.589 + 26.405_708_4 * d) * r
        let E7 = (134.963 + 13.064_993_0 * d) * r
        let E8 = (276.617 + 0.328_714_6 * d) * r
        let E9 = (34.226 + 1.748_487_7 * d) * r
        let E10 = (15.134 - 0.158_976_3 * d) * r
        let E11 = (119.743 + 0.003_609_6 * d) * r
        let E12 = (239.961 + 0.164_357_3 * d) * r
        let E13 = (25.053 + 12.959_008_8 * d) * r
        let ra = -3.8787 * sin(E1) - 0.1204 * sin(E2) + 0.0700 * sin(E3) - 0.0172 * sin(E4)
            + 0.0072 * sin(E6) - 0.0052 * sin(E10) + 0.0043 * sin(E13)
        let dec = 1.5419 * cos(E1) + 0.0239 * cos(E2) - 0.0278 * cos(E3) + 0.0068 * cos(E4)
            - 0.0029 * cos(E6) + 0.0009 * cos(E7) + 0.0008 * cos(E10) - 0.0009 * cos(E13)
        let w = 3.5610 * sin(E1) + 0.1208 * sin(E2) - 0.0642 * sin(E3) + 0.0158 * sin(E4)
            + 0.0252 * sin(E5) - 0.0066 * sin(E6) - 0.0047 * sin(E7) - 0.0046 * sin(E8)
            + 0.0028 * sin(E9) + 0.0052 * sin(E10) + 0.0040 * sin(E11) + 0.0019 * sin(E12) - 0.0044 * sin(E13)
        return (ra, dec, w)
    }

    /// The full IAU orientation of `body`.
    public static func orientation(_ body: BodyID, elements: IAURotationElements, daysTDB d: Double) -> Orientation {
        let a = angles(body, elements: elements, daysTDB: d)
        return Orientation(poleRADeg: a.ra, poleDecDeg: a.dec, primeMeridianDeg: a.w)
    }

    /// A synchronously rotating satellite: +x toward the parent, +z along the orbit normal
    /// (r × v of the satellite relative to its parent, any frame; here ecliptic J2000).
    public static func facingParent(relativePosition r: Vector3, relativeVelocity v: Vector3) -> Orientation {
        let z = r.cross(v).normalized
        let toward = (-r).normalized
        let x = (toward - z * toward.dot(z)).normalized
        return Orientation(poleEcliptic: z, primeMeridianEcliptic: x)
    }
}
