import Ephemeris
import Sky

/// The Earth as it really turned, for places on it (launch pads, splashdown sites): IAU 2006
/// precession, IAU 2000B nutation, the Earth rotation angle from UT1 and the IERS pole
/// (``EarthOrientation``), with UT1 and the pole from the IERS table when one is given
/// (`Resources/iers-delta-t.csv`, 1973 on) and from the engine's ΔT otherwise (EOP 20 C04 from
/// 1962; a date before 1972 is read as UT1). The IAU rotation model the bodies are drawn with
/// leaves out nutation and the precession of the prime meridian: it put the pads 4–9 km west.
///
/// ```swift
/// let m = TerrestrialFrame(ephemeris: eph, deltaT: table).itrsToEcliptic(atSeconds: t)
/// let geocentric = m * pad.bodyFixedKm(radiusKm: 6_371)
/// ```
public struct TerrestrialFrame: Sendable {
    let sky: SkyEngine

    public init(ephemeris: Ephemeris, deltaT: DeltaTTable? = nil) {
        sky = SkyEngine(ephemeris: ephemeris, deltaT: deltaT)
    }

    /// ITRS (WGS 84 axes) → ecliptic J2000 at TDB seconds past J2000: Bᵀ Pᵀ Nᵀ R3(GAST) W, then
    /// ICRF to the ecliptic.
    public func itrsToEcliptic(atSeconds seconds: Double) -> Matrix3 {
        let o = EarthOrientation(time: sky.time(TimeScale.instant(tdbSecondsPastJ2000: seconds)))
        return Precession.eclipticToEquatorialJ2000.transposed * o.gcrsToTrueOfDate.transposed
            * Matrix3.rotationZ(o.gastRadians) * o.polarMotion.transposed
    }
}
