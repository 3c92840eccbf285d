import Astrodynamics
import Ephemeris

/// A body's IAU rotation as the kernels' body-fixed frames use it: the body-to-ecliptic matrix
/// and its rate (central differences over ±10 s, as ``KernelBodies`` and ``KernelAssembly``
/// take it), so states turned here and there agree to rounding.
struct BodyTurn {
    let body: BodyID
    let ephemeris: Ephemeris

    /// The body-to-ecliptic matrix at `seconds` and 10 s either side.
    func frame(_ seconds: Double) -> (m: Matrix3, before: Matrix3, after: Matrix3) {
        let h = 10.0
        return (ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds)).bodyToEcliptic,
                ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds - h)).bodyToEcliptic,
                ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds + h)).bodyToEcliptic)
    }

    /// The prime meridian's rate, degrees per day.
    func spinDegPerDay(_ seconds: Double) -> Double {
        let a = ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds - 3600)).primeMeridianDeg
        let b = ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds + 3600)).primeMeridianDeg
        var d = (b - a).truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d / 7200 * Constants.secondsPerDay
    }

    /// Body-centred inertial (ecliptic J2000) to body-fixed.
    func toBodyFixed(_ s: OrbitalState) -> OrbitalState {
        let (m, before, after) = frame(s.seconds)
        let mt = m.transposed
        let r = mt * s.positionKm
        let rate = (after * r - before * r) / 20
        return OrbitalState(seconds: s.seconds, positionKm: r, velocityKmS: mt * (s.velocityKmS - rate))
    }

    /// Body-fixed to body-centred inertial (ecliptic J2000).
    func fromBodyFixed(_ s: OrbitalState) -> OrbitalState {
        let (m, before, after) = frame(s.seconds)
        let rate = (after * s.positionKm - before * s.positionKm) / 20
        return OrbitalState(seconds: s.seconds, positionKm: m * s.positionKm, velocityKmS: m * s.velocityKmS + rate)
    }
}
