import Glibc

/// Which rotation model serves a body.
public enum RotationModelKind: String, Sendable {
    /// IAU WGCCRE rotational elements (polynomial, plus the report's periodic terms).
    case iau = "IAU WGCCRE 2015"
    /// Synchronous rotation: the body's +x axis points at its parent, +z along its orbit normal.
    case facesParent = "synchronous: faces its parent"
}

/// IAU WGCCRE rotational elements (Archinal et al. 2018, "Report of the IAU Working Group on
/// Cartographic Coordinates and Rotational Elements: 2015"; 2009 values for the Earth and Moon).
///
/// The polynomial terms come from the catalogue; the periodic terms of Mercury, the Moon, Mars,
/// Jupiter and Neptune (``IAUPeriodicTerms``) and Pluto's elements (absent from bodies.json) are
/// the report's and live here.
public enum IAURotation {
    /// Pluto (IAU 2015): α0 = 132.993°, δ0 = −6.163°, W = 302.695° + 56.3625225°·d.
    public static let pluto = IAURotationElements(
        poleRADeg: Polynomial1(value: 132.993, ratePerCentury: 0),
        poleDecDeg: Polynomial1(value: -6.163, ratePerCentury: 0),
        primeMeridianDeg: 302.695,
        primeMeridianRateDegPerDay: 56.362_522_5
    )

    /// Pole and prime meridian from the polynomial terms only.
    public static func polynomial(_ e: IAURotationElements, daysTDB d: Double) -> (ra: Double, dec: Double, w: Double) {
        let T = d / Constants.daysPerJulianCentury
        return (e.poleRADeg.at(T), e.poleDecDeg.at(T), e.primeMeridianDeg + e.primeMeridianRateDegPerDay * d)
    }

    /// Pole and prime meridian including the report's periodic terms for `body`
    /// (``IAUPeriodicTerms``: Mercury, the Moon, Mars, Jupiter, Neptune).
    public static func angles(_ body: BodyID, elements e: IAURotationElements, daysTDB d: Double) -> (ra: Double, dec: Double, w: Double) {
        var (ra, dec, w) = polynomial(e, daysTDB: d)
        if body == .moon { w -= 1.4e-12 * d * d } // the Moon's quadratic W term (2009 report)
        guard let series = IAUPeriodicTerms.forBody(body) else { return (ra, dec, w) }
        let p = series.offsets(centuriesTDB: d / Constants.daysPerJulianCentury)
        return (ra + p.ra, dec + p.dec, w + p.w)
    }

    /// The full IAU orientation of `body`.
    public static func orientation(_ body: BodyID, elements: IAURotationElements, daysTDB d: Double) -> Orientation {
        let a = angles(body, elements: elements, daysTDB: d)
        return Orientation(poleRADeg: a.ra, poleDecDeg: a.dec, primeMeridianDeg: a.w)
    }

    /// A synchronously rotating satellite: +x toward the parent, +z along the orbit normal
    /// (r × v of the satellite relative to its parent, any frame; here ecliptic J2000).
    public static func facingParent(relativePosition r: Vector3, relativeVelocity v: Vector3) -> Orientation {
        facingParent(relativePosition: r, orbitNormal: r.cross(v))
    }

    /// The same from the orbit normal itself (any length), where a theory gives it directly.
    public static func facingParent(relativePosition r: Vector3, orbitNormal n: Vector3) -> Orientation {
        let z = n.normalized
        let toward = (-r).normalized
        let x = (toward - z * toward.dot(z)).normalized
        return Orientation(poleEcliptic: z, primeMeridianEcliptic: x)
    }
}
