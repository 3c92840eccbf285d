import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// Patched conics through dated flybys by shooting, for flyby sequences that return to the same
/// body (Parker Solar Probe's Venus flybys, BepiColombo's Mercury flybys), where Lambert's
/// problem between the body's two positions is nearly degenerate — a whole number of its years
/// apart the positions coincide, and every orbit of the right period through one returns to the
/// other — so a ``FlybyChain`` of Lambert legs between its flybys does not converge.
///
/// Each flyby is aimed: its closest approach at the published distance and time, and the
/// direction of its B-vector (the aim point in the B-plane, an angle from T̂ towards R̂,
/// T̂ = v̂∞ × ẑ/|v̂∞ × ẑ|, R̂ = v̂∞ × T̂, ẑ the ecliptic pole). The flyby is unpowered: one
/// hyperbola about the body from its sphere of influence (Laplace radius) in to the closest
/// approach and out again, which the aim fixes. Between flybys the path is two-body motion about
/// the Sun with one impulse — at the aphelion nearest the leg's middle (a spacecraft coasting
/// between flybys trims its path there), or where in the leg the caller says — found by
/// Newton's method so that the arc reaches the next flyby's sphere with that flyby's distance,
/// time and aim. Before the first flyby: the escape hyperbola from the Earth (its v∞ is the
/// launcher's, found the same way) or a known path (``PatchedCoast``) left with an impulse at a
/// given time. After the last flyby: a coast to the end, the last aim turning as `endTurn` says —
/// or the path stops at the last closest approach, its aim given too.
///
/// Reversed, the same construction runs backwards in time from a known path's start (the first
/// state of a data kernel, carried back) through the flybys before it to a last "flyby" that is
/// the injection point of a launch (the escape hyperbola's periapsis at the injection time):
/// with time and velocities negated two-body motion is unchanged, and an impulse's vector is the
/// same either way.
///
/// The aims are the free choices: the caller searches them (and dates known only to the day) for
/// the least total impulse. Heliocentric ecliptic J2000, km, km/s, TDB seconds past J2000.
public struct FlybyShooting: Sendable {
    public struct Flyby: Sendable {
        public let body: BodyID
        /// Closest approach: TDB seconds and distance from the centre (km).
        public let seconds: Double
        public let distanceKm: Double
        public let name: String

        public init(body: BodyID, seconds: Double, distanceKm: Double, name: String) {
            self.body = body
            self.seconds = seconds
            self.distanceKm = distanceKm
            self.name = name
        }
    }

    public enum Start: Sendable {
        /// The escape hyperbola from the Earth, its periapsis `altitudeKm` up at `seconds`, in
        /// the plane through its asymptote least inclined to the equator (forwards only).
        case escape(seconds: Double, altitudeKm: Double)
        /// A known path (`coast`) left with an impulse at `seconds` (before it when reversed).
        case coast(PatchedCoast, seconds: Double)
    }

    public let start: Start
    /// In the order the construction meets them (latest first when reversed).
    public let flybys: [Flyby]
    public let endSeconds: Double
    public let endTurn: FlybyPlan.Turn
    /// Backwards in time from the start.
    public let reversed: Bool
    /// The path stops at the last flyby's closest approach (and that flyby's aim is given).
    public let stopsAtLastFlyby: Bool
    let ephemeris: Ephemeris
    /// Revolutions tried for a leg's first guess (Lambert from the impulse to the body's centre).
    public var maxRevolutions = 8
    /// Where in leg `k` (1 is the leg from the first flyby to the second) its correction is made,
    /// as a fraction of the time from leaving one sphere of influence to about reaching the next;
    /// legs not listed use the aphelion nearest their middle.
    public var impulseFractions: [Int: Double] = [:]
    /// A published perihelion the coast after the last flyby must reach at its time (TDB seconds
    /// past J2000; forwards only): the last flyby's turn is then not `endTurn`'s but the one
    /// nearest it, about the incoming asymptote, whose heliocentric coast reaches perihelion
    /// then. `endTurn` still applies where no turn within a quarter circle of it does.
    public var endPerihelionSeconds: Double?

    public init(start: Start, flybys: [Flyby], endSeconds: Double, endTurn: FlybyPlan.Turn, reversed: Bool = false,
                stopsAtLastFlyby: Bool = false, ephemeris: Ephemeris) {
        self.start = start
        self.flybys = flybys
        self.endSeconds = endSeconds
        self.endTurn = endTurn
        self.reversed = reversed
        self.stopsAtLastFlyby = stopsAtLastFlyby
        self.ephemeris = ephemeris
    }

    public struct ShootingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Where an arc of the path starts or ends.
    public enum Mark: Sendable, Equatable {
        /// The escape's exit from the Earth's sphere (escape start).
        case start
        /// Leg `k`'s impulse (0: the one leaving the known path).
        case impulse(Int)
        case flyby(Int)
        case end
    }

    /// One conic of the path: about `centre` (its state relative to it at `epochSeconds`), over
    /// its span, forwards in time.
    public struct Arc: Sendable {
        public enum Kind: Sendable, Equatable {
            /// The escape hyperbola of an escape start.
            case escape
            /// Flyby `k`'s hyperbola.
            case hyperbola(Int)
            /// About the Sun, in time order.
            case cruise(from: Mark, to: Mark)
        }

        public let kind: Kind
        public let center: BodyID
        public let startSeconds: Double
        public let endSeconds: Double
        let conic: KeplerArc
        let epochSeconds: Double

        /// The conic's state relative to its centre.
        public func local(at t: Double) -> (position: Vector3, velocity: Vector3) { conic.state(afterSeconds: t - epochSeconds) }
    }

    public struct Impulse: Sendable {
        /// The leg it belongs to (0: leaving the known path).
        public let leg: Int
        public let seconds: Double
        public let deltaV: Vector3
    }

    public struct FlownFlyby: Sendable {
        public let flyby: Flyby
        public let closestApproachKm: Double
        public let closestApproachSeconds: Double
        public let vInfinityKmS: Double
        public let turnRadians: Double
    }

    public struct Solution: Sendable {
        /// In time order.
        public let arcs: [Arc]
        public let impulses: [Impulse]
        public let flybys: [FlownFlyby]
        /// The escape asymptote's speed (escape start, or a reversed path ending at an injection).
        public let departureVInfinityKmS: Double?
        /// The sum of the impulses' sizes, km/s.
        public var totalImpulseKmS: Double { impulses.reduce(0) { $0 + $1.deltaV.length } }
    }

    // MARK: - Time and bodies

    /// +1 forwards, −1 reversed: solver time τ = direction · t, velocities likewise.
    var direction: Double { reversed ? -1 : 1 }

    /// Flyby `k`'s closest approach in solver time.
    func tau(_ k: Int) -> Double { direction * flybys[k].seconds }

    /// A body's heliocentric state at solver time `tau` (the kernels' placement: ``FlybyRecipe/centerID(_:)``).
    func place(_ body: BodyID, _ tau: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let s = ephemeris.naifState(FlybyRecipe.centerID(body), at: TimeScale.instant(tdbSecondsPastJ2000: direction * tau)) ?? (.zero, .zero)
        return (s.positionKm, s.velocityKmS * direction)
    }

    func sphere(_ body: BodyID, _ tau: Double) -> Double {
        FlybyGeometry.sphereOfInfluenceKm(distanceKm: place(body, tau).positionKm.length, mu: GravityConstants.gm(body), centralMu: GravityConstants.gm(.sun))
    }

    static let sunMu = GravityConstants.gm(.sun)

    /// The sense of motion about the ecliptic pole in solver time (the planets' forwards, the
    /// opposite reversed).
    var sense: LambertDirection { reversed ? .retrograde : .prograde }

    static func helio(_ s: (position: Vector3, velocity: Vector3), after dt: Double) -> (position: Vector3, velocity: Vector3) {
        KeplerArc(mu: sunMu, position: s.position, velocity: s.velocity, epochHours: 0).state(afterSeconds: dt)
    }

    /// The B-plane axes of an incoming asymptote: T̂ = û × ẑ/|û × ẑ|, R̂ = û × T̂.
    static func bPlane(_ u: Vector3) -> (t: Vector3, r: Vector3) {
        var t = u.cross(Vector3(0, 0, 1))
        if t.length < 1e-9 { t = u.cross(Vector3(1, 0, 0)) }
        t = t.normalized
        return (t, u.cross(t))
    }

    // MARK: - Aiming at a flyby

    /// An arrival at flyby `k`'s sphere (body-relative state at the entry) and what it misses
    /// its target by: the B-vector's two components (km) and the closest approach's time (as
    /// km along the asymptote).
    struct Arrival {
        let residual: [Double]
        let vInfinity: Vector3
        let position: Vector3
        let velocity: Vector3
    }

    func arrival(_ k: Int, aim: Double, entry: Double, state: (position: Vector3, velocity: Vector3)) -> Arrival? {
        let f = flybys[k]
        let mu = GravityConstants.gm(f.body)
        let b = place(f.body, entry)
        let r = state.position - b.positionKm, v = state.velocity - b.velocityKmS
        guard let vInf = FlybyGeometry.vInfinity(position: r, velocity: v, mu: mu, outgoing: false) else { return nil }
        let speed = vInf.length
        let u = vInf / speed
        let h = r.cross(v)
        let impact = h.length / speed
        let bVector = u.cross(h.normalized) * impact
        let target = f.distanceKm * (1 + 2 * mu / (f.distanceKm * speed * speed)).squareRoot()
        let (tHat, rHat) = Self.bPlane(u)
        // The closest approach's time from the hyperbolic anomaly at the entry.
        let a = mu / (speed * speed)
        let e = (1 + pow(impact * speed * speed / mu, 2)).squareRoot()
        let anomaly = asinh(r.dot(v) / (e * (mu * a).squareRoot()))
        let n = (mu / (a * a * a)).squareRoot()
        let periapsis = entry - (e * sinh(anomaly) - anomaly) / n
        return Arrival(residual: [bVector.dot(tHat) - target * cos(aim), bVector.dot(rHat) - target * sin(aim), (periapsis - tau(k)) * speed],
                       vInfinity: vInf, position: r, velocity: v)
    }

    /// Seconds before closest approach at which the hyperbola with these v∞ and periapsis
    /// crosses the sphere.
    static func secondsFromSphere(vInfinity: Double, periapsisKm: Double, mu: Double, sphereKm: Double) -> Double {
        let a = mu / (vInfinity * vInfinity)
        let e = 1 + periapsisKm / a
        let anomaly = acosh(max(1, (1 + sphereKm / a) / e))
        let n = (mu / (a * a * a)).squareRoot()
        return (e * sinh(anomaly) - anomaly) / n
    }

    /// Newton's method on three unknowns (finite-difference Jacobian, halving steps that do not
    /// lower the residual) until the residual is below `tolerance` (km).
    static func newton(_ x0: Vector3, step: Double, tolerance: Double = 1e-6, _ f: (Vector3) -> [Double]?) -> Vector3? {
        func norm(_ r: [Double]) -> Double { r.reduce(0) { max($0, abs($1)) } }
        var x = x0
        guard var r = f(x) else { return nil }
        for _ in 0..<60 {
            if norm(r) < tolerance { return x }
            var j = [[Double]](repeating: [0, 0, 0], count: 3)
            for c in 0..<3 {
                var d = Vector3.zero
                if c == 0 { d.x = step } else if c == 1 { d.y = step } else { d.z = step }
                guard let rp = f(x + d) else { return nil }
                for i in 0..<3 { j[i][c] = (rp[i] - r[i]) / step }
            }
            guard let dx = solve3(j, r.map { -$0 }) else { return nil }
            var lambda = 1.0, accepted = false
            while lambda > 1e-6 {
                let trial = x + Vector3(dx[0], dx[1], dx[2]) * lambda
                if let rt = f(trial), norm(rt) < norm(r) {
                    x = trial
                    r = rt
                    accepted = true
                    break
                }
                lambda /= 2
            }
            if !accepted { break }
        }
        return norm(r) < tolerance ? x : nil
    }

    /// Cramer's rule for three equations.
    static func solve3(_ a: [[Double]], _ b: [Double]) -> [Double]? {
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let d = det(a)
        guard d != 0, d.isFinite else { return nil }
        return (0..<3).map { c in det(a.enumerated().map { i, row in row.enumerated().map { k, v in k == c ? b[i] : v } }) / d }
    }

    /// The entry to flyby `k`'s sphere and the arrival there for an aimed unknown `x` (an impulse
    /// or an escape v∞) that `heliocentric` turns into the heliocentric state at a solver time:
    /// Newton's method from `guess`, the entry time re-found from each answer's v∞ (starting from
    /// `vInfinity`).
    func aim(_ k: Int, aim: Double, guess: Vector3, vInfinity: Double, earliest: Double,
             heliocentric: (Vector3, Double) -> (position: Vector3, velocity: Vector3)?) -> (x: Vector3, arrival: Arrival, entry: Double)? {
        let f = flybys[k]
        let mu = GravityConstants.gm(f.body)
        let soi = sphere(f.body, tau(k))
        var x = guess, speed = vInfinity
        var result: (Vector3, Arrival, Double)?
        for _ in 0..<6 {
            let entry = tau(k) - Self.secondsFromSphere(vInfinity: speed, periapsisKm: f.distanceKm, mu: mu, sphereKm: soi)
            guard entry > earliest else { return nil }
            guard let solved = Self.newton(x, step: 1e-7, { y in heliocentric(y, entry).flatMap { arrival(k, aim: aim, entry: entry, state: $0)?.residual } }),
                  let s = heliocentric(solved, entry), let a = arrival(k, aim: aim, entry: entry, state: s) else { return nil }
            x = solved
            result = (x, a, entry)
            let moved = abs(a.vInfinity.length - speed)
            speed = a.vInfinity.length
            if moved < 1e-9 { break }
        }
        return result
    }

    /// The impulse at `state` (heliocentric, solver time) that sends two-body motion about the
    /// Sun to flyby `k` with its distance, time and aim: from each of the four Lambert arcs to the
    /// body's centre (over every revolution count and branch) nearest the coasting velocity; the
    /// least impulse found wins.
    func aimedImpulse(from state: OrbitalState, to k: Int, aim theAim: Double) -> (deltaV: Vector3, arrival: Arrival, entry: Double)? {
        let target = place(flybys[k].body, tau(k))
        let tof = tau(k) - state.seconds
        guard tof > 0, let solutions = try? Lambert.solutions(mu: Self.sunMu, from: state.positionKm, to: target.positionKm, seconds: tof,
                                                              direction: sense, maxRevolutions: maxRevolutions) else { return nil }
        let guesses = solutions.sorted { ($0.v1 - state.velocityKmS).length < ($1.v1 - state.velocityKmS).length }
        var best: (deltaV: Vector3, arrival: Arrival, entry: Double)?
        for g in guesses.prefix(4) {
            let found = aim(k, aim: theAim, guess: g.v1 - state.velocityKmS, vInfinity: (g.v2 - target.velocityKmS).length, earliest: state.seconds) { dv, entry in
                Self.helio((state.positionKm, state.velocityKmS + dv), after: entry - state.seconds)
            }
            if let found, found.x.length < best?.deltaV.length ?? .infinity { best = (found.x, found.arrival, found.entry) }
        }
        return best
    }

    // MARK: - The path

    /// The escape hyperbola's periapsis state (Earth-relative) for an outgoing asymptote, in the
    /// plane through it least inclined to the equator, prograde.
    func escapeState(vInfinity: Vector3, seconds: Double, altitudeKm: Double) -> (position: Vector3, velocity: Vector3) {
        let mu = GravityConstants.gm(.earth)
        let r0 = ephemeris.catalogue[.earth].radiusKm + altitudeKm
        let pole = ephemeris.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: seconds)).poleEcliptic
        let u = vInfinity.normalized
        var normal = pole - u * pole.dot(u)
        if normal.length < 1e-9 { normal = Vector3(0, 0, 1) - u * u.z }
        normal = normal.normalized
        let w = normal.cross(u)
        let e = 1 + r0 * vInfinity.lengthSquared / mu
        let cosTheta = -1 / e, sinTheta = (1 - cosTheta * cosTheta).squareRoot()
        let p = u * cosTheta - w * sinTheta
        let speed = (vInfinity.lengthSquared + 2 * mu / r0).squareRoot()
        return (p * r0, normal.cross(p) * speed)
    }

    /// The aim of the last flyby that turns its asymptote as `endTurn` says.
    func endAim(_ k: Int, vInfinity: Vector3) -> Double {
        let u = vInfinity.normalized
        let (tHat, rHat) = Self.bPlane(u)
        var direction: Vector3
        switch endTurn {
        case .clockAngle(let angle): direction = tHat * cos(angle) + rHat * sin(angle)
        case .accelerate, .decelerate:
            let v = place(flybys[k].body, tau(k)).velocityKmS
            let along = v - u * v.dot(u)
            direction = endTurn == .accelerate ? along.normalized : -along.normalized
        }
        if let target = endPerihelionSeconds, !reversed, k == flybys.count - 1,
           let angle = perihelionTurn(k, vInfinity: vInfinity, near: atan2(direction.dot(rHat), direction.dot(tHat)), target: target) {
            direction = tHat * cos(angle) + rHat * sin(angle)
        }
        // The path bends towards the body, away from the B-vector.
        let b = -direction
        return atan2(b.dot(rHat), b.dot(tHat))
    }

    /// The clock angle of the turn at flyby `k` (as ``FlybyPlan/Turn/clockAngle(_:)`` takes it)
    /// nearest `start` whose outgoing two-body coast about the Sun next reaches perihelion at
    /// `target`; `nil` when no angle within a quarter circle of `start` does.
    func perihelionTurn(_ k: Int, vInfinity: Vector3, near start: Double, target: Double) -> Double? {
        let f = flybys[k]
        let speed = vInfinity.length, u = vInfinity.normalized
        let (tHat, rHat) = Self.bPlane(u)
        let mu = GravityConstants.gm(f.body)
        let turn = FlybyGeometry.unpoweredTurn(vInfinity: speed, periapsisKm: f.distanceKm, mu: mu)
        let periapsisSpeed = (speed * speed + 2 * mu / f.distanceKm).squareRoot()
        let soi = sphere(f.body, tau(k))
        // As `solve` flies it: the hyperbola from its periapsis at the flyby's time out to the
        // sphere of influence, then two-body about the Sun.
        func late(_ angle: Double) -> Double {
            let direction = tHat * cos(angle) + rHat * sin(angle)
            let w = u * cos(turn) + direction * sin(turn)
            let position = (u - w).normalized * f.distanceKm, velocity = (u + w).normalized * periapsisSpeed
            guard let out = FlybyGeometry.secondsToRadius(position: position, velocity: velocity, mu: mu, radiusKm: soi, forward: true) else { return .nan }
            let local = KeplerArc(mu: mu, position: position, velocity: velocity, epochHours: 0).state(afterSeconds: out)
            let b = place(f.body, tau(k) + out)
            guard let after = FlybyGeometry.secondsToPeriapsis(position: local.position + b.positionKm, velocity: local.velocity + b.velocityKmS, mu: Self.sunMu) else { return .nan }
            return tau(k) + out + after - target
        }
        let step = Double.pi / 180, reach = 90
        let here = late(start)
        guard here.isFinite else { return nil }
        if here == 0 { return start }
        // Outwards on both sides a degree at a time; the first sign change found, bisected.
        var inner = (above: here, below: here)
        for j in 1...reach {
            for side in [1.0, -1.0] {
                let a = start + side * Double(j - 1) * step, b = start + side * Double(j) * step
                let fa = side > 0 ? inner.above : inner.below, fb = late(b)
                if side > 0 { inner.above = fb } else { inner.below = fb }
                guard fa.isFinite, fb.isFinite, (fa < 0) != (fb < 0) else { continue }
                let r = Search.bisect(a, b, iterations: 50) { (late($0) < 0) == (fa < 0) ? .above : .below }
                return (r.lo + r.hi) / 2
            }
        }
        return nil
    }

    /// When a leg's correction is made by default: the aphelion (of the arc leaving the previous
    /// flyby) nearest the leg's middle, or the middle where the orbit has no aphelion in the leg.
    func impulseTime(after exit: OrbitalState, before entry: Double) -> Double {
        let mid = (exit.seconds + entry) / 2
        let r = exit.positionKm, v = exit.velocityKmS
        let energy = v.lengthSquared / 2 - Self.sunMu / r.length
        guard energy < 0 else { return mid }
        let a = -Self.sunMu / (2 * energy)
        let period = 2 * Double.pi * (a * a * a / Self.sunMu).squareRoot()
        let eVector = v.cross(r.cross(v)) / Self.sunMu - r / r.length
        let e = eVector.length
        guard e > 1e-6 else { return mid }
        var nu = acos(max(-1, min(1, eVector.dot(r) / (e * r.length))))
        if r.dot(v) < 0 { nu = 2 * Double.pi - nu }
        let anomaly = 2 * atan(((1 - e) / (1 + e)).squareRoot() * tan(nu / 2))
        var m = anomaly - e * sin(anomaly)
        if m < 0 { m += 2 * Double.pi }
        var aphelion = exit.seconds + (Double.pi - m) / (2 * Double.pi / period)
        if aphelion < exit.seconds { aphelion += period }
        let margin = 0.02 * (entry - exit.seconds)
        var best: Double?
        while aphelion < entry - margin {
            if aphelion > exit.seconds + margin, best.map({ abs(aphelion - mid) < abs($0 - mid) }) ?? true { best = aphelion }
            aphelion += period
        }
        return best ?? mid
    }

    /// An arc in solver time, turned into a forward one.
    func arc(_ kind: Arc.Kind, _ center: BodyID, from a: Double, to b: Double, conic: KeplerArc, epoch: Double) -> Arc {
        guard reversed else { return Arc(kind: kind, center: center, startSeconds: a, endSeconds: b, conic: conic, epochSeconds: epoch) }
        var k = kind
        if case let .cruise(from, to) = kind { k = .cruise(from: to, to: from) }
        return Arc(kind: k, center: center, startSeconds: -b, endSeconds: -a,
                   conic: KeplerArc(mu: conic.mu, position: conic.position, velocity: -conic.velocity, epochHours: 0), epochSeconds: -epoch)
    }

    /// The path for these aims: one per flyby but the last, whose aim follows `endTurn` — or one
    /// per flyby when the path stops at the last.
    public func solve(aims: [Double]) throws -> Solution {
        let n = flybys.count
        guard n > 0, aims.count == (stopsAtLastFlyby ? n : n - 1) else {
            throw ShootingError(description: "\(n) flybys need \(stopsAtLastFlyby ? n : n - 1) aims, \(aims.count) given")
        }
        var arcs: [Arc] = [], impulses: [Impulse] = [], flown: [FlownFlyby] = []
        var departure: Double?
        var entry: (arrival: Arrival, seconds: Double)
        func aimOf(_ k: Int, _ vInfinity: Vector3) -> Double { k < aims.count ? aims[k] : endAim(k, vInfinity: vInfinity) }
        /// Aimed at flyby `k` from `state`, re-aiming by the end rule until it settles.
        func aimedAt(_ k: Int, from state: OrbitalState, guessVInfinity: Vector3) -> (deltaV: Vector3, arrival: Arrival, entry: Double)? {
            var theAim = aimOf(k, guessVInfinity)
            var found = aimedImpulse(from: state, to: k, aim: theAim)
            guard k >= aims.count else { return found }
            for _ in 0..<8 {
                guard let got = found else { return nil }
                let again = aimOf(k, got.arrival.vInfinity)
                if abs(again - theAim) < 1e-12 { break }
                theAim = again
                found = aimedImpulse(from: state, to: k, aim: theAim)
            }
            return found
        }
        // The first leg.
        switch start {
        case let .escape(t0, altitude):
            guard !reversed else { throw ShootingError(description: "an escape start runs forwards") }
            let earthMu = GravityConstants.gm(.earth)
            let soiEarth = sphere(.earth, t0)
            let e0 = place(.earth, t0), b1 = place(flybys[0].body, tau(0))
            guard let lambert = try? Lambert.solution(mu: Self.sunMu, from: e0.positionKm, to: b1.positionKm, seconds: tau(0) - t0) else {
                throw ShootingError(description: "no first guess from the Earth to \(flybys[0].name)")
            }
            func exitState(_ vInf: Vector3) -> (conic: KeplerArc, seconds: Double)? {
                let p = escapeState(vInfinity: vInf, seconds: t0, altitudeKm: altitude)
                guard let dt = FlybyGeometry.secondsToRadius(position: p.position, velocity: p.velocity, mu: earthMu, radiusKm: soiEarth, forward: true) else { return nil }
                return (KeplerArc(mu: earthMu, position: p.position, velocity: p.velocity, epochHours: 0), dt)
            }
            func heliocentric(_ vInf: Vector3, _ at: Double) -> (position: Vector3, velocity: Vector3)? {
                guard let (conic, dt) = exitState(vInf) else { return nil }
                let exit = conic.state(afterSeconds: dt)
                let e = place(.earth, t0 + dt)
                return Self.helio((exit.position + e.positionKm, exit.velocity + e.velocityKmS), after: at - t0 - dt)
            }
            var theAim = aimOf(0, lambert.v2 - b1.velocityKmS)
            var found: (x: Vector3, arrival: Arrival, entry: Double)?
            for _ in 0..<8 {
                found = aim(0, aim: theAim, guess: lambert.v1 - e0.velocityKmS, vInfinity: (lambert.v2 - b1.velocityKmS).length, earliest: t0, heliocentric: heliocentric)
                guard let got = found, aims.isEmpty else { break }
                let again = aimOf(0, got.arrival.vInfinity)
                if abs(again - theAim) < 1e-12 { break }
                theAim = again
            }
            guard let got = found, let (conic, dt) = exitState(got.x) else { throw ShootingError(description: "the escape could not be aimed at \(flybys[0].name)") }
            departure = got.x.length
            arcs.append(arc(.escape, .earth, from: t0, to: t0 + dt, conic: conic, epoch: t0))
            let exit = conic.state(afterSeconds: dt)
            let e = place(.earth, t0 + dt)
            arcs.append(arc(.cruise(from: .start, to: .flyby(0)), .sun, from: t0 + dt, to: got.entry,
                            conic: KeplerArc(mu: Self.sunMu, position: exit.position + e.positionKm, velocity: exit.velocity + e.velocityKmS, epochHours: 0), epoch: t0 + dt))
            entry = (got.arrival, got.entry)
        case let .coast(coast, t0):
            let real = coast.state(at: t0)
            let s = OrbitalState(seconds: direction * t0, positionKm: real.positionKm, velocityKmS: real.velocityKmS * direction)
            guard let got = aimedAt(0, from: s, guessVInfinity: s.velocityKmS - place(flybys[0].body, tau(0)).velocityKmS) else {
                throw ShootingError(description: "no impulse at \(FlybyRecipe.iso(t0)) reaches \(flybys[0].name)")
            }
            impulses.append(Impulse(leg: 0, seconds: t0, deltaV: got.deltaV))
            arcs.append(arc(.cruise(from: .impulse(0), to: .flyby(0)), .sun, from: s.seconds, to: got.entry,
                            conic: KeplerArc(mu: Self.sunMu, position: s.positionKm, velocity: s.velocityKmS + got.deltaV, epochHours: 0), epoch: s.seconds))
            entry = (got.arrival, got.entry)
        }
        // Flyby by flyby.
        let end = direction * endSeconds
        for k in 0..<n {
            let f = flybys[k]
            let mu = GravityConstants.gm(f.body)
            let a = entry.arrival
            let conic = KeplerArc(mu: mu, position: a.position, velocity: a.velocity, epochHours: 0)
            let periapsis = tau(k) + a.residual[2] / a.vInfinity.length
            let atPeriapsis = conic.state(afterSeconds: periapsis - entry.seconds)
            guard let vOut = FlybyGeometry.vInfinity(position: atPeriapsis.position, velocity: atPeriapsis.velocity, mu: mu, outgoing: true) else {
                throw ShootingError(description: "\(f.name): not a hyperbola")
            }
            flown.append(FlownFlyby(flyby: f, closestApproachKm: atPeriapsis.position.length, closestApproachSeconds: direction * periapsis,
                                    vInfinityKmS: a.vInfinity.length, turnRadians: a.vInfinity.angle(to: vOut)))
            if k == n - 1, stopsAtLastFlyby {
                arcs.append(arc(.hyperbola(k), f.body, from: entry.seconds, to: periapsis, conic: conic, epoch: entry.seconds))
                departure = a.vInfinity.length
                break
            }
            let soi = sphere(f.body, tau(k))
            guard let out = FlybyGeometry.secondsToRadius(position: atPeriapsis.position, velocity: atPeriapsis.velocity, mu: mu, radiusKm: soi, forward: true) else {
                throw ShootingError(description: "\(f.name): the hyperbola does not leave the sphere of influence")
            }
            let exit = k == n - 1 ? min(periapsis + out, end) : periapsis + out
            arcs.append(arc(.hyperbola(k), f.body, from: entry.seconds, to: exit, conic: conic, epoch: entry.seconds))
            let local = conic.state(afterSeconds: exit - entry.seconds)
            let b = place(f.body, exit)
            let leaving = OrbitalState(seconds: exit, positionKm: local.position + b.positionKm, velocityKmS: local.velocity + b.velocityKmS)
            if k == n - 1 {
                if exit < end {
                    arcs.append(arc(.cruise(from: .flyby(k), to: .end), .sun, from: exit, to: end,
                                    conic: KeplerArc(mu: Self.sunMu, position: leaving.positionKm, velocity: leaving.velocityKmS, epochHours: 0), epoch: exit))
                }
                break
            }
            // The leg to the next flyby: a coast to its correction, then aimed.
            let reach = tau(k + 1) - 2 * sphere(flybys[k + 1].body, tau(k + 1)) / max(a.vInfinity.length, 1)
            let t1 = impulseFractions[k + 1].map { exit + $0 * (reach - exit) } ?? impulseTime(after: leaving, before: reach)
            guard t1 > exit, t1 < tau(k + 1) else { throw ShootingError(description: "the correction before \(flybys[k + 1].name) falls outside its leg") }
            let before = Self.helio((leaving.positionKm, leaving.velocityKmS), after: t1 - exit)
            let at = OrbitalState(seconds: t1, positionKm: before.position, velocityKmS: before.velocity)
            guard let got = aimedAt(k + 1, from: at, guessVInfinity: vOut) else {
                throw ShootingError(description: "no correction at \(FlybyRecipe.iso(direction * t1)) reaches \(flybys[k + 1].name) with its aim")
            }
            arcs.append(arc(.cruise(from: .flyby(k), to: .impulse(k + 1)), .sun, from: exit, to: t1,
                            conic: KeplerArc(mu: Self.sunMu, position: leaving.positionKm, velocity: leaving.velocityKmS, epochHours: 0), epoch: exit))
            impulses.append(Impulse(leg: k + 1, seconds: direction * t1, deltaV: got.deltaV))
            arcs.append(arc(.cruise(from: .impulse(k + 1), to: .flyby(k + 1)), .sun, from: t1, to: got.entry,
                            conic: KeplerArc(mu: Self.sunMu, position: at.positionKm, velocity: at.velocityKmS + got.deltaV, epochHours: 0), epoch: t1))
            entry = (got.arrival, got.entry)
        }
        if reversed {
            arcs.reverse()
            impulses.reverse()
        }
        return Solution(arcs: arcs, impulses: impulses, flybys: flown, departureVInfinityKmS: departure)
    }

    /// The heliocentric state on `arc` at `t` (forwards time).
    public func state(_ arc: Arc, at t: Double) -> OrbitalState {
        let s = arc.local(at: t)
        guard arc.center != .sun else { return OrbitalState(seconds: t, positionKm: s.position, velocityKmS: s.velocity) }
        let b = ephemeris.naifState(FlybyRecipe.centerID(arc.center), at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        return OrbitalState(seconds: t, positionKm: s.position + b.positionKm, velocityKmS: s.velocity + b.velocityKmS)
    }
}
