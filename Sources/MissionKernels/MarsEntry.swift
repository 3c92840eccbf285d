import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A Mars lander's entry, descent and landing, from its entry-interface state to a landing
/// site at the touchdown time, in three degrees of freedom:
///
/// 1. Guided hypersonic entry: gravity (the Mars model handed in: J2 and the Sun), drag and
///    lift in an exponential atmosphere turning with Mars. The lift is banked by one angle
///    before a reversal and another after it; the two angles are solved (Newton's method) so
///    that the descent reaches the powered-descent altitude straight above the site — what
///    the entry guidance of MSL and Mars 2020 does by modulating the bank.
/// 2. Parachute: deployed at an airspeed (a Mach number), inflating over two seconds; drag only.
/// 3. Powered descent from the backshell separation altitude to the site: a cubic in Mars's
///    body-fixed frame from the parachute's state to rest on the ground at the touchdown time
///    (the sky crane's final seconds are not modelled apart).
///
/// States are Mars-centred, ecliptic J2000, km and km/s, TDB seconds.
public struct MarsEntry: Sendable {
    /// Mass over drag coefficient times area of the entry vehicle, kg/m².
    public var ballisticCoefficient: Double
    public var liftToDrag: Double
    /// Mass over drag coefficient times area under the parachute, kg/m².
    public var parachuteBallisticCoefficient: Double
    /// Airspeed at which the parachute is deployed, km/s.
    public var parachuteDeploySpeedKmS: Double
    /// Height above the site at which the powered descent begins, km.
    public var backshellSeparationKm: Double
    /// Seconds after the entry interface at which the bank is reversed (the two angles,
    /// before and after, are what the guidance solves for).
    public var bankReversalSeconds = 100.0

    /// Mars 2020: about 3,440 kg at entry under a 4.5 m aeroshell (15.9 m², C_D ≈ 1.68, the
    /// 70° sphere-cone MSL flew) and a trim L/D of 0.24; a 21.5 m disk-gap-band parachute
    /// (C_D ≈ 0.6) with about 2,900 kg under it once the heat shield is gone; deployment near
    /// Mach 1.75 (420 m/s) and backshell separation about 2.1 km above the ground (NASA Mars
    /// 2020 landing press kit). Model values of the vehicle's class, not a reconstruction.
    public static let mars2020 = MarsEntry(ballisticCoefficient: 129, liftToDrag: 0.24, parachuteBallisticCoefficient: 13.3,
                                           parachuteDeploySpeedKmS: 0.42, backshellSeparationKm: 2.1)

    public init(ballisticCoefficient: Double, liftToDrag: Double, parachuteBallisticCoefficient: Double,
                parachuteDeploySpeedKmS: Double, backshellSeparationKm: Double) {
        self.ballisticCoefficient = ballisticCoefficient
        self.liftToDrag = liftToDrag
        self.parachuteBallisticCoefficient = parachuteBallisticCoefficient
        self.parachuteDeploySpeedKmS = parachuteDeploySpeedKmS
        self.backshellSeparationKm = backshellSeparationKm
    }

    /// Density (kg/m³) at the mean radius and scale height (km) of the exponential atmosphere
    /// (NASA Mars fact sheet: surface density about 0.020 kg/m³, scale height 11.1 km).
    static let rho0 = 0.020, scaleHeightKm = 11.1
    /// Integration step of the entry and parachute phases, seconds.
    static let step = 0.2

    public struct Flight: Sendable {
        /// States from the entry interface to touchdown, Mars-centred ecliptic J2000.
        public let states: [OrbitalState]
        /// The bank angles before and after the reversal, degrees (positive: lift to the left
        /// of the airflow seen from above).
        public let bankDeg: (before: Double, after: Double)
        public let parachuteSeconds: Double
        public let backshellSeparationSeconds: Double
        /// Largest drag deceleration, in Earth gravities.
        public let peakDecelerationG: Double
        /// Airspeed and the flight-path angles (degrees) of the air-relative and the inertial
        /// velocity at the entry interface.
        public let interfaceAirspeedKmS: Double
        public let interfaceFlightPathDeg: Double
        public let interfaceInertialFlightPathDeg: Double
        /// The powered descent: its length (s), the descent rate (km/s), the distance from
        /// straight above the site (km) and the speed across the ground (km/s) where it begins.
        public let poweredDescent: (seconds: Double, descentRateKmS: Double, offsetKm: Double, groundSpeedKmS: Double)
    }

    public struct EntryError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Flies from `interface` (Mars-centred) to rest at `siteBodyFixedKm` (Mars's IAU
    /// body-fixed frame, turned by the engine's rotation as the kernels' IAU_MARS segments are)
    /// at `touchdownSeconds`. `gravity` is a Mars-centred model.
    public func fly(from interface: OrbitalState, siteBodyFixedKm site: Vector3, touchdownSeconds: Double, gravity: GravityModel,
                    ephemeris: Ephemeris) throws -> Flight {
        let t0 = interface.seconds
        guard touchdownSeconds > t0 + 120 else { throw EntryError(description: "touchdown \(touchdownSeconds - t0) s after the entry interface") }
        let turn = BodyTurn(body: .mars, ephemeris: ephemeris)
        let pole = turn.frame(t0).m * Vector3(0, 0, 1)
        let spinDegPerDay = turn.spinDegPerDay(t0)
        let omega = pole * (spinDegPerDay * .pi / 180 / Constants.secondsPerDay)
        let meanRadius = ephemeris.catalogue[.mars].radiusKm
        let siteRadius = site.length
        let up = site.normalized
        let east = Vector3(0, 0, 1).cross(up).normalized, north = up.cross(east)

        // The airspeed and flight-path angle where the flight begins.
        let air0 = interface.velocityKmS - omega.cross(interface.positionKm)
        let fpa = asin(interface.positionKm.normalized.dot(air0.normalized)) * 180 / .pi
        let inertialFPA = asin(interface.positionKm.normalized.dot(interface.velocityKmS.normalized)) * 180 / .pi

        struct Leg {
            var states: [OrbitalState]
            var parachute: Double
            var backshell: Double
            var peakG: Double
        }

        // One flight to the backshell separation with the bank angles `b` (radians).
        func toBackshell(_ b: [Double]) throws -> Leg {
            var r = interface.positionKm, v = interface.velocityKmS
            var states = [interface]
            var k = 0
            var deployed: Double?
            var peak = 0.0
            func acceleration(_ t: Double, _ r: Vector3, _ v: Vector3) -> Vector3 {
                var a = gravity.accelerationKmS2(at: r, seconds: t)
                let h = r.length - meanRadius
                guard h < 200 else { return a }
                let rho = Self.rho0 * exp(-h / Self.scaleHeightKm)
                let vAir = v - omega.cross(r)
                let speed = vAir.length
                guard speed > 1e-9 else { return a }
                // The parachute inflates over two seconds: drag area grows, lift goes.
                let x = deployed.map { min(1, max(0, (t - $0) / 2)) } ?? 0
                let inverseBeta = (1 - x) / ballisticCoefficient + x / parachuteBallisticCoefficient
                let drag = 0.5 * rho * (speed * 1000) * (speed * 1000) * inverseBeta / 1000
                let along = vAir / speed
                a -= along * drag
                let radial = r / r.length
                let vertical = (radial - along * radial.dot(along)).normalized
                let side = along.cross(vertical)
                let bank = t - t0 < bankReversalSeconds ? b[0] : b[1]
                a += (vertical * cos(bank) + side * sin(bank)) * (drag * liftToDrag * (1 - x))
                return a
            }
            func rk4(_ t: Double, _ r: Vector3, _ v: Vector3, _ dt: Double) -> (Vector3, Vector3) {
                let k1v = acceleration(t, r, v), k1r = v
                let k2v = acceleration(t + dt / 2, r + k1r * (dt / 2), v + k1v * (dt / 2)), k2r = v + k1v * (dt / 2)
                let k3v = acceleration(t + dt / 2, r + k2r * (dt / 2), v + k2v * (dt / 2)), k3r = v + k2v * (dt / 2)
                let k4v = acceleration(t + dt, r + k3r * dt, v + k3v * dt), k4r = v + k3v * dt
                return (r + (k1r + k2r * 2 + k3r * 2 + k4r) * (dt / 6), v + (k1v + k2v * 2 + k3v * 2 + k4v) * (dt / 6))
            }
            var t = t0
            while true {
                guard t < touchdownSeconds - 10, states.count < 100_000 else {
                    throw EntryError(description: "the descent did not reach \(backshellSeparationKm) km above the site before touchdown (\(r.length - siteRadius) km at +\(Int(t - t0)) s)")
                }
                k += 1
                let next = t0 + Double(k) * Self.step
                var (r1, v1) = rk4(t, r, v, next - t)
                var t1 = next
                // Events land on their exact times (a fraction of a step), so the result moves
                // smoothly with the bank angles.
                if deployed == nil {
                    let s0 = (v - omega.cross(r)).length, s1 = (v1 - omega.cross(r1)).length
                    if s1 <= parachuteDeploySpeedKmS {
                        let f = (s0 - parachuteDeploySpeedKmS) / (s0 - s1)
                        t1 = t + f * (next - t)
                        (r1, v1) = rk4(t, r, v, t1 - t)
                        deployed = t1
                        k -= 1 // the next step starts from the deployment: keep the grid
                    }
                }
                let h0 = r.length - siteRadius, h1 = r1.length - siteRadius
                if h1 <= backshellSeparationKm {
                    let f = (h0 - backshellSeparationKm) / (h0 - h1)
                    t1 = t + f * (t1 - t)
                    (r1, v1) = rk4(t, r, v, t1 - t)
                    states.append(OrbitalState(seconds: t1, positionKm: r1, velocityKmS: v1))
                    guard let deployed else { throw EntryError(description: "the parachute never opened: still \((v1 - omega.cross(r1)).length) km/s \(backshellSeparationKm) km above the site") }
                    return Leg(states: states, parachute: deployed, backshell: t1, peakG: peak)
                }
                let dragG = ((acceleration(t1, r1, v1) - gravity.accelerationKmS2(at: r1, seconds: t1)).length * 1000) / 9.806_65
                peak = max(peak, dragG)
                t = t1; r = r1; v = v1
                states.append(OrbitalState(seconds: t, positionKm: r, velocityKmS: v))
            }
        }

        // The miss, east and north at the site, when the powered descent begins.
        func miss(_ leg: Leg) -> [Double] {
            let end = leg.states[leg.states.count - 1]
            let fixed = turn.toBodyFixed(end)
            let d = fixed.positionKm - site
            return [d.dot(east), d.dot(north)]
        }
        let degrees = Double.pi / 180
        let solution = try Shooting.solve([60 * degrees, -60 * degrees], steps: [1e-5, 1e-5], tolerance: [0.01, 0.01]) { x in
            miss(try toBackshell(x))
        }
        let leg = try toBackshell(solution.x)

        // The powered descent, in the body-fixed frame from the parachute's state to rest at
        // the site at touchdown: across the ground a cubic; down, a cubic too while that
        // stays above the site (a descent rate below 3·height/time), else the height falls as
        // (1 − s)^k, braking hard at first and settling slowly, as the descent stage does.
        var descent = (0.0, 0.0, 0.0, 0.0)
        let start = turn.toBodyFixed(leg.states[leg.states.count - 1])
        let span = touchdownSeconds - leg.backshell
        guard span >= 20, span <= 240 else {
            throw EntryError(description: "the powered descent would last \(Int(span)) s (backshell separation at +\(Int(leg.backshell - t0)) s); the parachute phase does not fit the touchdown time")
        }
        let h0 = (start.positionKm - site).dot(up), rate0 = start.velocityKmS.dot(up)
        let across0 = start.positionKm - site - up * h0, acrossRate0 = start.velocityKmS - up * rate0
        let k = -rate0 * span / h0
        var states = leg.states
        let n = Int((span / 0.5).rounded(.up))
        for i in 1...n {
            let s = Double(i) / Double(n)
            let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
            let d00 = (6 * s * s - 6 * s) / span, d10 = 3 * s * s - 4 * s + 1
            let height: Double, heightRate: Double
            if k > 2 {
                height = h0 * pow(1 - s, k)
                heightRate = -k * h0 * pow(1 - s, k - 1) / span
            } else {
                height = h0 * h00 + rate0 * span * h10
                heightRate = h0 * d00 + rate0 * d10
            }
            let p = site + up * height + across0 * h00 + acrossRate0 * (h10 * span)
            let v = up * heightRate + across0 * d00 + acrossRate0 * d10
            let t = i == n ? touchdownSeconds : leg.backshell + span * s
            guard p.length >= siteRadius - 1e-6 else {
                throw EntryError(description: "the powered descent dips \(Int(((siteRadius - p.length) * 1000).rounded())) m below the site at +\(Int(t - t0)) s")
            }
            states.append(turn.fromBodyFixed(OrbitalState(seconds: t, positionKm: i == n ? site : p, velocityKmS: i == n ? .zero : v)))
        }
        descent = (span, -rate0, across0.length, acrossRate0.length)
        return Flight(states: states, bankDeg: (solution.x[0] / degrees, solution.x[1] / degrees), parachuteSeconds: leg.parachute,
                      backshellSeparationSeconds: leg.backshell, peakDecelerationG: leg.peakG,
                      interfaceAirspeedKmS: air0.length, interfaceFlightPathDeg: fpa, interfaceInertialFlightPathDeg: inertialFPA,
                      poweredDescent: descent)
    }
}

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
