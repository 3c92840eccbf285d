import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A capsule's atmospheric entry and parachute descent, from the entry-interface state to the
/// surface at the splashdown time: three degrees of freedom — gravity, drag and lift in an
/// exponential atmosphere turning with the Earth, a constant bank angle (its vertical part) — down to the drogue
/// altitude, then parachutes whose descent rate brings it down at the published time, drifting
/// with the air. Guidance against skipping out (lift rolled downward while climbing) and, when
/// ``lateral`` is set, Apollo's lateral logic reduced to one bank reversal: the lift's side
/// part turns the capsule one way, then the other, and when it reverses sets how far across
/// track it lands. Otherwise where it lands follows from the entry state, which a mission
/// builder aims so that it lands at the published site.
public struct EntryModel: Sendable {
    /// Mass over drag coefficient times area, kg/m².
    public var ballisticCoefficient: Double
    public var liftToDrag: Double
    /// Angle of the lift vector from the local vertical, degrees.
    public var bankDeg: Double
    /// Where the drogue parachute opens, km.
    public var drogueAltitudeKm = 7.3
    /// The bank's side: nil flies the vertical part of the lift alone (reversals that keep the
    /// side part near zero on average); else the side part is flown too, to the right of the
    /// track (`side` +1: airflow × up) or the left (−1) until `reversalSeconds` (TDB past
    /// J2000), and to the other side after it.
    public var lateral: Lateral?

    /// One bank reversal (``lateral``).
    public struct Lateral: Sendable {
        public var side: Double
        public var reversalSeconds: Double
        public init(side: Double, reversalSeconds: Double) {
            self.side = side
            self.reversalSeconds = reversalSeconds
        }
    }

    /// Apollo's command module: 5,600 kg, 3.9 m across (11.9 m²), C_D ≈ 1.3, L/D ≈ 0.3
    /// (Apollo Experience Report, entry guidance, NASA TN D-6725).
    public static let apolloCommandModule = EntryModel(ballisticCoefficient: 360, liftToDrag: 0.3, bankDeg: 60)
    /// Orion: about 9,300 kg at entry, 5.0 m across (19.6 m²), L/D ≈ 0.27.
    public static let orion = EntryModel(ballisticCoefficient: 365, liftToDrag: 0.27, bankDeg: 60)

    public init(ballisticCoefficient: Double, liftToDrag: Double, bankDeg: Double) {
        self.ballisticCoefficient = ballisticCoefficient
        self.liftToDrag = liftToDrag
        self.bankDeg = bankDeg
    }

    /// Sea-level density (kg/m³) and scale height (km) of the exponential atmosphere (a fit to
    /// the US Standard Atmosphere 1976 over 0–120 km).
    static let rho0 = 1.225, scaleHeightKm = 7.2

    public struct Flight: Sendable {
        /// One-second states from the entry interface to the landing, Earth-centred ecliptic
        /// J2000, km and km/s.
        public let states: [OrbitalState]
        /// Where it came down, in the Earth's IAU body-fixed frame.
        public let landingBodyFixedKm: Vector3
        public let landingLatitudeDeg: Double
        public let landingLongitudeDeg: Double
    }

    public struct EntryError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Flies from `interface` (Earth-centred, ecliptic J2000) to the ground at `landingSeconds`.
    public func fly(from interface: OrbitalState, landingSeconds: Double, ephemeris: Ephemeris) throws -> Flight {
        let mu = GravityConstants.earthGM
        let t0 = interface.seconds
        guard landingSeconds > t0 + 60 else { throw EntryError(description: "landing \(landingSeconds - t0) s after the entry interface") }
        let orientation = ephemeris.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: t0))
        let pole = orientation.bodyToEcliptic * Vector3(0, 0, 1)
        // The IAU Earth turns 360.9856235° per day.
        let omega = pole * (360.985_623_5 * .pi / 180 / Constants.secondsPerDay)
        func altitude(_ r: Vector3) -> Double {
            let sinLat = r.dot(pole) / r.length
            return r.length - Constants.earthEquatorialRadiusKm * (1 - sinLat * sinLat / Constants.earthInverseFlattening)
        }
        func acceleration(_ r: Vector3, _ v: Vector3, _ t: Double) -> Vector3 {
            let rn = r.length
            var a = r * (-mu / (rn * rn * rn))
            let h = altitude(r)
            guard h < 150 else { return a }
            let rho = Self.rho0 * exp(-h / Self.scaleHeightKm) // kg/m³
            let vRel = v - omega.cross(r)
            let speed = vRel.length
            guard speed > 1e-6 else { return a }
            // Drag per unit mass, ½ρv²/β in m/s², turned into km/s².
            let drag = 0.5 * rho * (speed * 1000) * (speed * 1000) / ballisticCoefficient / 1000
            let along = vRel / speed
            a -= along * drag
            // Lift perpendicular to the airflow, tilted from the vertical by the bank angle.
            let up = (r / rn - along * (r / rn).dot(along)).normalized
            // The bank angle, except when climbing: then rolled over to pull down (a capsule
            // coming back faster than orbital speed would otherwise skip out of the air).
            let climbing = v.dot(r) > 0
            let bank = (climbing ? 180 - bankDeg : bankDeg) * .pi / 180
            // Without `lateral` the side component is left out: flown capsules reverse the bank
            // to keep it near zero on average (Apollo's lateral logic), so only the vertical
            // part steers.
            a += up * (cos(bank) * drag * liftToDrag)
            if let lateral {
                let side = t < lateral.reversalSeconds ? lateral.side : -lateral.side
                a += along.cross(up) * (side * sin(bank) * drag * liftToDrag)
            }
            return a
        }
        var states = [interface]
        var r = interface.positionKm, v = interface.velocityKmS, t = t0
        let dt = 1.0
        // Hypersonic flight to the drogue altitude.
        while altitude(r) > drogueAltitudeKm {
            guard t < landingSeconds - 30, states.count < 20_000 else {
                throw EntryError(description: "the entry did not reach \(drogueAltitudeKm) km before the landing time (altitude \(altitude(r)) km at +\(t - t0) s)")
            }
            let k1v = acceleration(r, v, t), k1r = v
            let k2v = acceleration(r + k1r * (dt / 2), v + k1v * (dt / 2), t + dt / 2), k2r = v + k1v * (dt / 2)
            let k3v = acceleration(r + k2r * (dt / 2), v + k2v * (dt / 2), t + dt / 2), k3r = v + k2v * (dt / 2)
            let k4v = acceleration(r + k3r * dt, v + k3v * dt, t + dt), k4r = v + k3v * dt
            r += (k1r + k2r * 2 + k3r * 2 + k4r) * (dt / 6)
            v += (k1v + k2v * 2 + k3v * 2 + k4v) * (dt / 6)
            t += dt
            states.append(OrbitalState(seconds: t, positionKm: r, velocityKmS: v))
        }
        // Parachutes: the air's own velocity, and a descent rate that reaches the ground at the
        // landing time (eased in over the first 20 s, as the drogue takes hold).
        let h0 = altitude(r)
        let descentRate = h0 / (landingSeconds - t)
        let entryVelocity = v
        let startT = t
        while t < landingSeconds {
            let step = min(dt, landingSeconds - t)
            t += step
            let air = omega.cross(r)
            let ease = min(1, (t - startT) / 20)
            let easeW = ease * ease * (3 - 2 * ease)
            let up = r.normalized
            let target = air - up * descentRate
            v = entryVelocity * (1 - easeW) + target * easeW
            r += v * step
            // Stay on the descent profile: the remaining height falls linearly to the ground.
            let want = max(0, h0 * (landingSeconds - t) / (landingSeconds - startT))
            r += up * (want - altitude(r))
            states.append(OrbitalState(seconds: t, positionKm: r, velocityKmS: v))
        }
        // Under the parachutes the heights were set, not integrated: velocities from the
        // positions, so the path's velocity is its derivative.
        let first = states.firstIndex { $0.seconds >= startT } ?? states.count - 1
        for k in max(first, 1)..<(states.count - 1) {
            let dv = (states[k + 1].positionKm - states[k - 1].positionKm) / (states[k + 1].seconds - states[k - 1].seconds)
            states[k] = OrbitalState(seconds: states[k].seconds, positionKm: states[k].positionKm, velocityKmS: dv)
        }
        // At rest on the ground: it turns with the Earth.
        if let last = states.last { states[states.count - 1] = OrbitalState(seconds: last.seconds, positionKm: last.positionKm, velocityKmS: omega.cross(last.positionKm)) }
        let landing = ephemeris.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: landingSeconds)).bodyToEcliptic.transposed * r
        let lat = asin(landing.z / landing.length) * 180 / .pi
        let lon = atan2(landing.y, landing.x) * 180 / .pi
        return Flight(states: states, landingBodyFixedKm: landing, landingLatitudeDeg: lat, landingLongitudeDeg: lon)
    }
}
