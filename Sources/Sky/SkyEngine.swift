import Glibc
import Ephemeris

/// The observer's view on top of the ephemeris: apparent places, altitude and azimuth, and the
/// searches built on them (rising and setting, phases, seasons, apsides).
///
/// ```swift
/// let sky = SkyEngine(ephemeris: eph, deltaT: try DeltaTTable(csv: bytes))
/// let time = sky.time(try TimeScale.parse("2026-11-22T20:00:00Z"))
/// let view = sky.view([.moon, .jupiter], from: paris, at: time, atmosphere: .standard)
/// ```
public struct SkyEngine: Sendable {
    public let ephemeris: Ephemeris
    /// IERS ΔT; nil: the engine's ΔT model throughout (UT1 = UTC from 1972).
    public let deltaT: DeltaTTable?

    public init(ephemeris: Ephemeris, deltaT: DeltaTTable?) {
        self.ephemeris = ephemeris
        self.deltaT = deltaT
    }

    /// Bodies an observer on the Earth can be asked about: all but the Earth itself and the ISS,
    /// whose catalogue orbit is a mean element set far too coarse for a topocentric place.
    public static let observable: [BodyID] = BodyID.allCases.filter { $0 != .earth && $0 != .iss }
    /// The default list: the Sun, the Moon, the planets and Pluto.
    public static let defaultBodies: [BodyID] = [.sun, .moon, .mercury, .venus, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]

    /// The instant with its ΔT (IERS table where it has one).
    public func time(_ t: Instant) -> SkyTime {
        if let deltaT { return deltaT.skyTime(t) }
        if let early = DeltaTTable.readAsUT(t) { return early }
        return SkyTime(instant: t, deltaTSeconds: DeltaTTable.modelDeltaT(jdUTC: t.jdUTC),
                       deltaTSource: TimeScale.deltaTSource(julianYear: DeltaTTable.julianYear(jdUTC: t.jdUTC)) + " (no IERS table loaded)")
    }

    // MARK: - Positions

    static let eclipticToICRF = Precession.eclipticToEquatorialJ2000

    /// Heliocentric ICRF position (AU) of `body` at `tdbSeconds` past J2000: the DE kernel inside
    /// its span, the engine's theories outside.
    func heliocentricICRF(_ body: BodyID, tdbSeconds s: Double) -> Vector3 {
        if let k = ephemeris.kernel, NAIFBody.planetaryKernelID(body) != nil, k.spanSeconds.contains(s) {
            return Self.eclipticToICRF * k.heliocentricPosition(body, secondsPastJ2000: s)
        }
        return Self.eclipticToICRF * ephemeris.heliocentricPositionAU(body, at: TimeScale.instant(tdbSecondsPastJ2000: s))
    }

    /// The Earth's heliocentric ICRF state (AU, AU/day).
    func earthICRF(_ t: Instant) -> (position: Vector3, velocity: Vector3) {
        let e = ephemeris.state(.earth, at: t)
        return (Self.eclipticToICRF * e.positionAU, Self.eclipticToICRF * e.velocityAUPerDay)
    }

    /// Where the observer is, heliocentric ICRF (AU, AU/day), with the Earth's orientation.
    struct Station {
        let orientation: EarthOrientation
        let positionAU: Vector3
        let velocityAUPerDay: Vector3
        let tdbSeconds: Double
        let observer: Observer?
    }

    func station(_ observer: Observer?, at time: SkyTime, orientation given: EarthOrientation? = nil) -> Station {
        let orientation = given ?? EarthOrientation(time: time)
        let earth = earthICRF(time.instant)
        let s = time.instant.daysSinceJ2000TDB * Constants.secondsPerDay
        guard let observer else {
            return Station(orientation: orientation, positionAU: earth.position, velocityAUPerDay: earth.velocity, tdbSeconds: s, observer: nil)
        }
        let toGCRS = orientation.gcrsToTrueOfDate.transposed
        let rTOD = Matrix3.rotationZ(orientation.gastRadians) * (orientation.polarMotion.transposed * observer.terrestrialKm)
        let vTOD = Vector3(0, 0, SkyConstants.earthRotationRadiansPerSecond).cross(rTOD)
        let r = toGCRS * rTOD, v = toGCRS * vTOD
        return Station(orientation: orientation, positionAU: earth.position + r / Constants.auKm,
                       velocityAUPerDay: earth.velocity + v * (Constants.secondsPerDay / Constants.auKm), tdbSeconds: s, observer: observer)
    }

    func place(_ body: BodyID, from station: Station) -> ApparentPlace {
        ApparentPlace.compute(observerAU: station.positionAU, observerVelocityAUPerDay: station.velocityAUPerDay,
                              tdbSeconds: station.tdbSeconds, deflect: body != .sun) { s in heliocentricICRF(body, tdbSeconds: s) }
    }

    // MARK: - The view

    /// Every listed body from `observer` at `time`; refraction for `atmosphere` (nil: none).
    public func view(_ bodies: [BodyID], from observer: Observer, at time: SkyTime, atmosphere: Atmosphere?) -> [SkyPosition] {
        let st = station(observer, at: time)
        let sun = place(.sun, from: st)
        let year = 2000 + time.instant.daysSinceJ2000TDB / 365.25
        return bodies.map { body in
            let p = body == .sun ? sun : place(body, from: st)
            return position(body, p, sun: sun, station: st, observer: observer, atmosphere: atmosphere, year: year, time: time)
        }
    }

    /// What every entry reads from a place: astrometric and apparent RA/Dec, alt/az, distance,
    /// hour angle (west positive, in (−180, 180]).
    struct Directions {
        let astrometric: (raDeg: Double, decDeg: Double)
        let apparent: (raDeg: Double, decDeg: Double)
        let horizontal: (azimuthDeg: Double, altitudeDeg: Double, airlessAltitudeDeg: Double)
        let distanceAU: Double
        let hourAngleDeg: Double
    }

    func directions(_ p: ApparentPlace, station st: Station, observer: Observer, atmosphere: Atmosphere?) -> Directions {
        let o = st.orientation
        let tod = o.gcrsToTrueOfDate * p.apparentDirection
        let apparent = Self.raDec(tod)
        var hourAngle = Angle.normalizedDegrees(Angle.degrees(o.gastRadians) + observer.longitudeDeg - apparent.raDeg)
        if hourAngle > 180 { hourAngle -= 360 }
        return Directions(astrometric: Self.raDec(p.astrometricAU), apparent: apparent,
                          horizontal: Self.horizontal(trueOfDate: tod, orientation: o, observer: observer, atmosphere: atmosphere),
                          distanceAU: p.astrometricAU.length, hourAngleDeg: hourAngle)
    }

    func position(_ body: BodyID, _ p: ApparentPlace, sun: ApparentPlace, station st: Station, observer: Observer,
                  atmosphere: Atmosphere?, year: Double, time: SkyTime) -> SkyPosition {
        let d = directions(p, station: st, observer: observer, atmosphere: atmosphere)
        let (astrometric, apparent, horizontal, distanceAU, hourAngle) = (d.astrometric, d.apparent, d.horizontal, d.distanceAU, d.hourAngleDeg)
        var phase: Double?, fraction: Double?, elongation: Double?, subLatitudes = (sun: 0.0, observer: 0.0)
        if body != .sun {
            let a = (-p.bodyAU).angle(to: -p.astrometricAU) * Angle.degreesPerRadian
            phase = a
            fraction = (1 + cos(a * Angle.radiansPerDegree)) / 2
            elongation = p.apparentDirection.angle(to: sun.apparentDirection) * Angle.degreesPerRadian
        }
        if body == .saturn || body == .uranus {
            let pole = ephemeris.orientation(body, at: time.instant).bodyToEquatorial * Vector3(0, 0, 1)
            func latitude(_ towardBody: Vector3) -> Double { -asin(max(-1, min(1, pole.dot(towardBody.normalized)))) * Angle.degreesPerRadian }
            subLatitudes = (latitude(p.bodyAU), latitude(p.astrometricAU))
        }
        let magnitude = Photometry.magnitude(body, sunDistanceAU: p.bodyAU.length, observerDistanceAU: distanceAU,
                                             phaseDeg: phase ?? 0, subLatitudesDeg: subLatitudes, year: year)
        let radius = Self.radiusKm(body, ephemeris.catalogue)
        let diameter = 2 * asin(min(1, radius / (distanceAU * Constants.auKm))) * Angle.degreesPerRadian * 3600
        return SkyPosition(
            body: body.rawValue, raDeg: apparent.raDeg, decDeg: apparent.decDeg,
            raJ2000Deg: astrometric.raDeg, decJ2000Deg: astrometric.decDeg,
            azimuthDeg: horizontal.azimuthDeg, altitudeDeg: horizontal.altitudeDeg, airlessAltitudeDeg: horizontal.airlessAltitudeDeg,
            hourAngleDeg: hourAngle, distanceKm: distanceAU * Constants.auKm, lightTimeS: p.lightTimeS,
            illuminatedFraction: fraction, phaseAngleDeg: phase, elongationDeg: elongation, magnitude: magnitude,
            angularDiameterArcsec: diameter
        )
    }

    /// The radius semidiameters are drawn from: the IAU's Sun and Moon, the catalogue otherwise.
    static func radiusKm(_ body: BodyID, _ catalogue: Catalogue) -> Double {
        switch body {
        case .sun: return SkyConstants.sunRadiusKm
        case .moon: return SkyConstants.moonRadiusKm
        default: return catalogue[body].radiusKm
        }
    }

    /// Right ascension in [0, 360) and declination, degrees, of a vector.
    public static func raDec(_ v: Vector3) -> (raDeg: Double, decDeg: Double) {
        let ra = Angle.normalizedDegrees(atan2(v.y, v.x) * Angle.degreesPerRadian)
        let dec = atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * Angle.degreesPerRadian
        return (ra, dec)
    }

    /// Azimuth (north through east) and altitude of a true-of-date direction.
    static func horizontal(trueOfDate d: Vector3, orientation o: EarthOrientation, observer: Observer, atmosphere: Atmosphere?)
        -> (azimuthDeg: Double, altitudeDeg: Double, airlessAltitudeDeg: Double) {
        let t = o.trueOfDateToTerrestrial * d.normalized
        let airless = asin(max(-1, min(1, t.dot(observer.up)))) * Angle.degreesPerRadian
        let az = Angle.normalizedDegrees(atan2(t.dot(observer.east), t.dot(observer.north)) * Angle.degreesPerRadian)
        let alt = atmosphere.map { Refraction.apparentAltitudeDeg(trueAltitudeDeg: airless, temperatureC: $0.temperatureC, pressureHPa: $0.pressureHPa) } ?? airless
        return (az, alt, airless)
    }

    // MARK: - Stars

    /// Azimuth and altitude of catalogue directions (ICRF unit vectors, no proper motion: the
    /// catalogue's J2000 places), with the Sun's deflection and annual and diurnal aberration.
    public func horizontal(stars directions: [Vector3], from observer: Observer, at time: SkyTime, atmosphere: Atmosphere?)
        -> [(azimuthDeg: Double, altitudeDeg: Double)] {
        let st = station(observer, at: time)
        return directions.map { d in
            // A star is as far as its direction: the Sun → star line is the observer's.
            let bent = ApparentPlace.deflected(d, bodyAU: d * 1e12, observerAU: st.positionAU)
            let apparent = ApparentPlace.aberrated(bent, velocityAUPerDay: st.velocityAUPerDay)
            let h = Self.horizontal(trueOfDate: st.orientation.gcrsToTrueOfDate * apparent, orientation: st.orientation, observer: observer, atmosphere: atmosphere)
            return (h.azimuthDeg, h.altitudeDeg)
        }
    }
}
