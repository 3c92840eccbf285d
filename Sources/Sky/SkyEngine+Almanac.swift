import Glibc
import Ephemeris

/// A Moon quarter: 0 new, 1 first quarter, 2 full, 3 last quarter.
public struct MoonPhaseEvent: Sendable {
    public let quarter: Int
    public let instant: Instant
    public var name: String { Self.names[quarter] }
    public static let names = ["New Moon", "First Quarter", "Full Moon", "Last Quarter"]
}

/// The Moon's look at one instant (geocentric).
public struct MoonState: Sendable {
    /// Sun–Moon–Earth angle, degrees.
    public let phaseAngleDeg: Double
    public let illuminatedFraction: Double
    /// Apparent ecliptic longitude of the Moon minus the Sun's, degrees in [0, 360): 0 new, 180 full.
    public let longitudeFromSunDeg: Double
    /// Days since the last new Moon.
    public let ageDays: Double
    /// "New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous",
    /// "Last Quarter" or "Waning Crescent" (a quarter's name within a day of it).
    public let name: String
}

/// A perigee or apogee of the Moon, or the Earth's perihelion or aphelion, with the distance.
public struct Apsis: Sendable {
    public let kind: String
    public let instant: Instant
    public let distanceKm: Double
}

/// An equinox, solstice, perihelion or aphelion of one year.
public struct SeasonEvent: Sendable {
    public let kind: String
    public let instant: Instant
    /// Earth–Sun distance for perihelion and aphelion.
    public let distanceKm: Double?
    public static let seasonNames = ["march-equinox", "june-solstice", "september-equinox", "december-solstice"]
}

extension SkyEngine {
    /// The longest span the phase and apsis searches take, days (as the events' 10 years).
    public static let maxAlmanacSpanDays = 3_660.0

    static func instant(tdbSeconds s: Double) -> Instant { TimeScale.instant(tdbSecondsPastJ2000: s) }
    static func tdbSeconds(_ t: Instant) -> Double { t.daysSinceJ2000TDB * Constants.secondsPerDay }

    /// Geocentric apparent ecliptic longitudes of date (true equinox and ecliptic) of `bodies`,
    /// degrees, from one station.
    func apparentEclipticLongitudesDeg(_ bodies: [BodyID], tdbSeconds s: Double) -> [Double] {
        let time = self.time(Self.instant(tdbSeconds: s))
        let st = station(nil, at: time)
        let o = st.orientation
        let toEcliptic = Matrix3.rotationX(-(o.meanObliquityRadians + o.nutationEpsilonRadians)) * o.gcrsToTrueOfDate
        return bodies.map { body in
            let ecliptic = toEcliptic * place(body, from: st).apparentDirection
            return Angle.normalizedDegrees(atan2(ecliptic.y, ecliptic.x) * Angle.degreesPerRadian)
        }
    }

    func moonLongitudeFromSunDeg(tdbSeconds s: Double) -> Double {
        let l = apparentEclipticLongitudesDeg([.moon, .sun], tdbSeconds: s)
        return Angle.normalizedDegrees(l[0] - l[1])
    }

    /// Times in [a, b] (TDB seconds) where the angle `f` (degrees, increasing) crosses a multiple
    /// of 90°: scanned at `step` seconds (under a quarter turn each), solved to 0.05 s.
    static func quarterCrossings(from a: Double, to b: Double, step: Double, _ f: (Double) -> Double) -> [(seconds: Double, quarter: Int)] {
        var out: [(Double, Int)] = []
        var x0 = a, q0 = Int(f(a) / 90)
        while x0 < b {
            let x1 = min(b, x0 + step)
            let q1 = Int(f(x1) / 90)
            if q1 != q0 {
                let target = Double(q1) * 90
                let x = SkyTrack.solve(x0, x1) { x in
                    var d = f(x) - target
                    if d > 180 { d -= 360 } else if d <= -180 { d += 360 }
                    return d
                }
                out.append((x, q1))
            }
            x0 = x1; q0 = q1
        }
        return out
    }

    /// The Moon's quarters between `start` and `stop`.
    public func moonPhases(start: Instant, stop: Instant) -> [MoonPhaseEvent] {
        Self.quarterCrossings(from: Self.tdbSeconds(start), to: Self.tdbSeconds(stop), step: 86_400) { moonLongitudeFromSunDeg(tdbSeconds: $0) }
            .map { MoonPhaseEvent(quarter: $0.quarter, instant: Self.instant(tdbSeconds: $0.seconds)) }
    }

    /// The Moon at `t`: phase angle, illuminated fraction, elongation in longitude and age.
    public func moonState(at t: Instant) -> MoonState {
        let time = self.time(t)
        let st = station(nil, at: time)
        let moon = place(.moon, from: st)
        let phase = (-moon.bodyAU).angle(to: -moon.astrometricAU) * Angle.degreesPerRadian
        let s = Self.tdbSeconds(t)
        let longitude = moonLongitudeFromSunDeg(tdbSeconds: s)
        let lastNew = Self.quarterCrossings(from: s - 31 * 86_400, to: s, step: 86_400) { moonLongitudeFromSunDeg(tdbSeconds: $0) }
            .last { $0.quarter == 0 }
        let age = lastNew.map { (s - $0.seconds) / 86_400 } ?? longitude / 360 * SkyConstants.synodicMonthDays
        let daysPerDegree = SkyConstants.synodicMonthDays / 360
        let nearest = (longitude / 90).rounded()
        let name: String
        if abs(longitude - nearest * 90) * daysPerDegree <= 1 {
            name = MoonPhaseEvent.names[Int(nearest) % 4]
        } else {
            name = ["Waxing Crescent", "Waxing Gibbous", "Waning Gibbous", "Waning Crescent"][Int(longitude / 90) % 4]
        }
        return MoonState(phaseAngleDeg: phase, illuminatedFraction: (1 + cos(phase * Angle.radiansPerDegree)) / 2,
                         longitudeFromSunDeg: longitude, ageDays: age, name: name)
    }

    /// Geometric state of the Moon from the Earth's centre (km, km/day, ecliptic J2000).
    func moonGeocentric(tdbSeconds s: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        if let k = ephemeris.kernel, k.spanSeconds.contains(s) { return k.moonGeocentricState(secondsPastJ2000: s) }
        return ephemeris.parentRelativeState(.moon, at: Self.instant(tdbSeconds: s))
    }

    /// Geometric heliocentric state of the Earth (AU, AU/day, ecliptic J2000).
    func earthHeliocentric(tdbSeconds s: Double) -> StateVector {
        if let k = ephemeris.kernel, k.spanSeconds.contains(s) { return k.heliocentricState(.earth, secondsPastJ2000: s) }
        return ephemeris.state(.earth, at: Self.instant(tdbSeconds: s))
    }

    /// Where the radial velocity r·v changes sign in [a, b]: minima (−→+) and maxima (+→−).
    static func distanceExtrema(from a: Double, to b: Double, step: Double, _ state: (Double) -> (Vector3, Vector3))
        -> [(seconds: Double, maximum: Bool, distance: Double)] {
        func radial(_ x: Double) -> Double { let (r, v) = state(x); return r.dot(v) / r.length }
        var out: [(Double, Bool, Double)] = []
        var x0 = a, f0 = radial(a)
        while x0 < b {
            let x1 = min(b, x0 + step)
            let f1 = radial(x1)
            if (f0 < 0) != (f1 < 0) {
                let x = SkyTrack.solve(x0, x1, radial)
                out.append((x, f0 > 0, state(x).0.length))
            }
            x0 = x1; f0 = f1
        }
        return out
    }

    /// The Moon's perigees and apogees between `start` and `stop` (geometric distance between the
    /// centres, as DE440 gives it).
    public func moonApsides(start: Instant, stop: Instant) -> [Apsis] {
        Self.distanceExtrema(from: Self.tdbSeconds(start), to: Self.tdbSeconds(stop), step: 43_200) { s in
            let m = moonGeocentric(tdbSeconds: s)
            return (m.positionKm, m.velocityKmPerDay)
        }.map { Apsis(kind: $0.maximum ? "apogee" : "perigee", instant: Self.instant(tdbSeconds: $0.seconds), distanceKm: $0.distance) }
    }

    /// Equinoxes and solstices (the Sun's apparent geocentric longitude of date at 0°, 90°, 180°,
    /// 270°) and the Earth's perihelion and aphelion (its centre from the Sun's) of `year`, UTC.
    public func seasons(year: Int) throws(TimeError) -> [SeasonEvent] {
        let a = Self.tdbSeconds(try TimeScale.utc(year: year, month: 1, day: 1))
        let b = Self.tdbSeconds(try TimeScale.utc(year: year + 1, month: 1, day: 1))
        var out = Self.quarterCrossings(from: a, to: b, step: 86_400) { apparentEclipticLongitudesDeg([.sun], tdbSeconds: $0)[0] }
            .map { SeasonEvent(kind: SeasonEvent.seasonNames[$0.quarter % 4], instant: Self.instant(tdbSeconds: $0.seconds), distanceKm: nil) }
        out += Self.distanceExtrema(from: a, to: b, step: 5 * 86_400) { s in
            let e = earthHeliocentric(tdbSeconds: s)
            return (e.positionAU, e.velocityAUPerDay)
        }.map { SeasonEvent(kind: $0.maximum ? "aphelion" : "perihelion", instant: Self.instant(tdbSeconds: $0.seconds), distanceKm: $0.distance * Constants.auKm) }
        return out.sorted { $0.instant < $1.instant }
    }
}
