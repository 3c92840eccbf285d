import Glibc
import Ephemeris

/// One body seen from one place at one instant, before any rotation into the Earth's frames:
/// light time, gravitational deflection by the Sun and aberration applied to the geometry.
/// Vectors are ICRF axes, AU, relative to the Sun (the Sun's 13 m/s about the barycentre moves
/// an aberrated place by under 0.01″; see docs/sky.md).
struct ApparentPlace: Sendable {
    /// Heliocentric position of the body at the time its light left it.
    let bodyAU: Vector3
    /// Observer → body at the light's departure (the astrometric place).
    let astrometricAU: Vector3
    /// Unit vector of the apparent direction (deflected and aberrated).
    let apparentDirection: Vector3
    /// One-way light time, seconds.
    let lightTimeS: Double

    /// Places `body` for an observer at heliocentric `observerAU` moving at `observerVelocityAUPerDay`,
    /// at `tdbSeconds` past J2000; `position` gives heliocentric ICRF positions at TDB seconds.
    static func compute(
        observerAU o: Vector3, observerVelocityAUPerDay v: Vector3, tdbSeconds s: Double, deflect: Bool,
        position: (Double) -> Vector3
    ) -> ApparentPlace {
        var tau = 0.0
        var b = position(s)
        var p = b - o
        // Each pass shrinks the error by v/c (1e-4): three or four settle it to 10 µs, which
        // moves even the Moon by a centimetre.
        for _ in 0..<6 {
            let next = p.length * SkyConstants.lightTimePerAUSeconds
            if abs(next - tau) < 1e-5 { tau = next; break }
            tau = next
            b = position(s - tau)
            p = b - o
        }
        var direction = p.normalized
        if deflect { direction = deflected(direction, bodyAU: b, observerAU: o) }
        return ApparentPlace(bodyAU: b, astrometricAU: p, apparentDirection: aberrated(direction, velocityAUPerDay: v), lightTimeS: tau)
    }

    /// Light bent by the Sun's gravity (Explanatory Supplement 3rd ed. eq. 7.64; the form of
    /// IERS Conventions 2010 §11.1): p + (2GM/c²E)/(1 + q·e) · (e (p·q) − q (p·e)), with p the
    /// direction observer → body, q Sun → body, e Sun → observer and E that distance in AU.
    static func deflected(_ p: Vector3, bodyAU: Vector3, observerAU: Vector3) -> Vector3 {
        let em = observerAU.length
        let q = bodyAU.normalized, e = observerAU / em
        let qe = q.dot(e)
        // A body in front of the Sun from the observer, or the Sun itself: nothing to bend.
        guard bodyAU.length > 1e-9, 1 + qe > 1e-10 else { return p }
        let w = SkyConstants.sunDeflectionAU / em / (1 + qe)
        return (p + (e * p.dot(q) - q * p.dot(e)) * w).normalized
    }

    /// Relativistic annual (and diurnal) aberration: the direction seen by an observer moving at
    /// v (Explanatory Supplement 3rd ed. eq. 7.40), p′ ∝ p/γ + (1 + p·β/(1 + 1/γ)) β.
    static func aberrated(_ p: Vector3, velocityAUPerDay v: Vector3) -> Vector3 {
        let beta = v / SkyConstants.speedOfLightAUPerDay
        let inverseGamma = (1 - beta.lengthSquared).squareRoot()
        let pb = p.dot(beta)
        return (p * inverseGamma + beta * (1 + pb / (1 + inverseGamma))).normalized
    }
}
