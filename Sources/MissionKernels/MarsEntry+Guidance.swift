import Glibc
import Astrodynamics
import Ephemeris

extension MarsEntry {
    /// One flight from the interface to the backshell separation: its states, the parachute's
    /// deployment and the separation's times, and the peak drag deceleration (g).
    struct Leg {
        var states: [OrbitalState]
        var parachute: Double
        var backshell: Double
        var peakG: Double
    }

    /// The bank angles (radians, before and after the reversal) that bring the backshell
    /// separation straight above the site — what the entry guidance of MSL and Mars 2020 does by
    /// modulating the bank — solved by Newton's method from ±60°, and the flight they give.
    func guidedEntry(from start: Interface, gravity: GravityModel, touchdownSeconds: Double) throws -> (banks: [Double], leg: Leg) {
        let solution = try Shooting.solve([60 * Self.degree, -60 * Self.degree], steps: [1e-5, 1e-5], tolerance: [0.01, 0.01]) { x in
            miss(try toBackshell(x, from: start, gravity: gravity, touchdownSeconds: touchdownSeconds), start)
        }
        return (solution.x, try toBackshell(solution.x, from: start, gravity: gravity, touchdownSeconds: touchdownSeconds))
    }

    /// The miss, east and north at the site, km, when the powered descent begins.
    func miss(_ leg: Leg, _ start: Interface) -> [Double] {
        let end = leg.states[leg.states.count - 1]
        let fixed = start.turn.toBodyFixed(end)
        let d = fixed.positionKm - start.siteKm
        return [d.dot(start.east), d.dot(start.north)]
    }

    /// Gravity, drag and lift (banked by `bank[0]` before the reversal, `bank[1]` after it) at
    /// `t`; under the parachute deployed at `deployed`, drag only once it has inflated.
    func acceleration(_ t: Double, _ r: Vector3, _ v: Vector3, bank b: [Double], deployed: Double?, from start: Interface, gravity: GravityModel) -> Vector3 {
        var a = gravity.accelerationKmS2(at: r, seconds: t)
        let h = r.length - start.meanRadiusKm
        guard h < Self.atmosphereTopKm else { return a }
        let rho = Self.rho0 * exp(-h / Self.scaleHeightKm)
        let vAir = start.air(r, v)
        let speed = vAir.length
        guard speed > Self.stillAirKmS else { return a }
        let x = deployed.map { min(1, max(0, (t - $0) / Self.parachuteInflationSeconds)) } ?? 0
        let inverseBeta = (1 - x) / ballisticCoefficient + x / parachuteBallisticCoefficient
        let drag = 0.5 * rho * (speed * 1000) * (speed * 1000) * inverseBeta / 1000
        let along = vAir / speed
        a -= along * drag
        let radial = r / r.length
        let vertical = (radial - along * radial.dot(along)).normalized
        let side = along.cross(vertical)
        let bank = t - start.state.seconds < bankReversalSeconds ? b[0] : b[1]
        a += (vertical * cos(bank) + side * sin(bank)) * (drag * liftToDrag * (1 - x))
        return a
    }

    /// One classical Runge–Kutta step of `dt` from (`r`, `v`) at `t`.
    static func rk4(_ t: Double, _ r: Vector3, _ v: Vector3, _ dt: Double, _ acceleration: (Double, Vector3, Vector3) -> Vector3) -> (Vector3, Vector3) {
        let k1v = acceleration(t, r, v), k1r = v
        let k2v = acceleration(t + dt / 2, r + k1r * (dt / 2), v + k1v * (dt / 2)), k2r = v + k1v * (dt / 2)
        let k3v = acceleration(t + dt / 2, r + k2r * (dt / 2), v + k2v * (dt / 2)), k3r = v + k2v * (dt / 2)
        let k4v = acceleration(t + dt, r + k3r * dt, v + k3v * dt), k4r = v + k3v * dt
        return (r + (k1r + k2r * 2 + k3r * 2 + k4r) * (dt / 6), v + (k1v + k2v * 2 + k3v * 2 + k4v) * (dt / 6))
    }

    /// One flight to the backshell separation with the bank angles `b` (radians): the entry,
    /// then the parachute deployed at ``parachuteDeploySpeedKmS``. Both events land on their
    /// exact times (a fraction of a step), so the result moves smoothly with the bank angles.
    func toBackshell(_ b: [Double], from start: Interface, gravity: GravityModel, touchdownSeconds: Double) throws -> Leg {
        let t0 = start.state.seconds, siteRadius = start.siteRadiusKm
        var r = start.state.positionKm, v = start.state.velocityKmS
        var states = [start.state]
        var k = 0
        var deployed: Double?
        var peak = 0.0
        func step(_ t: Double, _ r: Vector3, _ v: Vector3, _ dt: Double) -> (Vector3, Vector3) {
            Self.rk4(t, r, v, dt) { acceleration($0, $1, $2, bank: b, deployed: deployed, from: start, gravity: gravity) }
        }
        var t = t0
        while true {
            guard t < touchdownSeconds - Self.latestBackshellSeconds, states.count < Self.mostSteps else {
                throw EntryError(description: "the descent did not reach \(backshellSeparationKm) km above the site before touchdown (\(r.length - siteRadius) km at +\(Int(t - t0)) s)")
            }
            k += 1
            let next = t0 + Double(k) * Self.step
            var (r1, v1) = step(t, r, v, next - t)
            var t1 = next
            if deployed == nil {
                let s0 = start.air(r, v).length, s1 = start.air(r1, v1).length
                if s1 <= parachuteDeploySpeedKmS {
                    let f = (s0 - parachuteDeploySpeedKmS) / (s0 - s1)
                    t1 = t + f * (next - t)
                    (r1, v1) = step(t, r, v, t1 - t)
                    deployed = t1
                    k -= 1 // the next step starts from the deployment: keep the grid
                }
            }
            let h0 = r.length - siteRadius, h1 = r1.length - siteRadius
            if h1 <= backshellSeparationKm {
                let f = (h0 - backshellSeparationKm) / (h0 - h1)
                t1 = t + f * (t1 - t)
                (r1, v1) = step(t, r, v, t1 - t)
                states.append(OrbitalState(seconds: t1, positionKm: r1, velocityKmS: v1))
                guard let deployed else { throw EntryError(description: "the parachute never opened: still \(start.air(r1, v1).length) km/s \(backshellSeparationKm) km above the site") }
                return Leg(states: states, parachute: deployed, backshell: t1, peakG: peak)
            }
            let drag = acceleration(t1, r1, v1, bank: b, deployed: deployed, from: start, gravity: gravity) - gravity.accelerationKmS2(at: r1, seconds: t1)
            let dragG = (drag.length * 1000) / Constants.standardGravityMS2
            peak = max(peak, dragG)
            t = t1; r = r1; v = v1
            states.append(OrbitalState(seconds: t, positionKm: r, velocityKmS: v))
        }
    }
}
