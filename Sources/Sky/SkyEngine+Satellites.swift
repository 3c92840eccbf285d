import Glibc
import Ephemeris
import Satellites

extension SkyEngine {
    /// An Earth satellite seen from `observer` at `time`: SGP4's geocentric ICRF position minus
    /// the observer's (IAU 2006/2000B orientation, UT1 from ΔT), one light-time step (the ISS
    /// moves 20 m in the 3 ms its light takes), the Earth's own motion over that time and the
    /// aberration of the observer's velocity (orbital and diurnal) — the ``ApparentPlace``
    /// model with the satellite's position linear over a few milliseconds; no deflection.
    public func view(satellite sgp4: SGP4, id: String, from observer: Observer, at time: SkyTime,
                     atmosphere: Atmosphere?) throws(SGP4Error) -> SatelliteSkyPosition {
        let st = station(observer, at: time)
        let o = st.orientation
        let earth = earthICRF(time.instant)
        let sunKm = -earth.position * Constants.auKm
        let fix = try sgp4.fix(at: time.instant, sunICRFKm: sunKm)
        let observerKm = (st.positionAU - earth.position) * Constants.auKm
        let tau = (fix.icrfPositionKm - observerKm).length / Constants.speedOfLightKmPerSecond
        // Observer → satellite when its light left: the satellite and the Earth's centre both
        // moved back by τ (the Earth's part cancels most of the annual aberration below).
        let earthShiftKm = earth.velocity * (tau / Constants.secondsPerDay * Constants.auKm)
        let astrometricKm = fix.icrfPositionKm - fix.icrfVelocityKmPerSecond * tau - earthShiftKm - observerKm
        let apparent = ApparentPlace.aberrated(astrometricKm.normalized, velocityAUPerDay: st.velocityAUPerDay)
        let tod = o.gcrsToTrueOfDate * apparent
        let raDec = Self.raDec(tod)
        let astrometric = Self.raDec(astrometricKm)
        let horizontal = Self.horizontal(trueOfDate: tod, orientation: o, observer: observer, atmosphere: atmosphere)
        var hourAngle = Angle.normalizedDegrees(Angle.degrees(o.gastRadians) + observer.longitudeDeg - raDec.raDeg)
        if hourAngle > 180 { hourAngle -= 360 }
        // Phase: Sun – satellite – observer; elongation: satellite – observer – Sun.
        let satellite = fix.icrfPositionKm
        let phase = (sunKm - satellite).angle(to: observerKm - satellite) * Angle.degreesPerRadian
        let elongation = astrometricKm.angle(to: sunKm - observerKm) * Angle.degreesPerRadian
        let position = SkyPosition(
            body: id, raDeg: raDec.raDeg, decDeg: raDec.decDeg, raJ2000Deg: astrometric.raDeg, decJ2000Deg: astrometric.decDeg,
            azimuthDeg: horizontal.azimuthDeg, altitudeDeg: horizontal.altitudeDeg, airlessAltitudeDeg: horizontal.airlessAltitudeDeg,
            hourAngleDeg: hourAngle, distanceKm: astrometricKm.length, lightTimeS: tau,
            illuminatedFraction: (1 + cos(phase * Angle.radiansPerDegree)) / 2, phaseAngleDeg: phase, elongationDeg: elongation,
            magnitude: nil, angularDiameterArcsec: nil)
        return SatelliteSkyPosition(position: position, illumination: fix.illumination ?? .sunlit, subpoint: fix.subpoint,
                                    minutesSinceEpoch: fix.minutesSinceEpoch)
    }
}
