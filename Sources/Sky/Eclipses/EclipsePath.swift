import Glibc
import Ephemeris

/// Where a solar eclipse falls on the Earth: the central line with its times, the limits of
/// the umbra (or antumbra) and of the penumbra, and the curves where the eclipse begins or ends
/// at sunrise or sunset. Places are geodetic (WGS 84), degrees, east positive; each curve is a
/// list of segments (a curve can leave the Earth's sunlit side and come back).
public struct EclipsePath: Sendable {
    public struct Place: Sendable {
        public let instant: Instant
        public let latitudeDeg: Double
        public let longitudeDeg: Double
    }

    public struct CentralPoint: Sendable {
        public let place: Place
        /// Central duration for a place at sea level there, seconds.
        public let durationSeconds: Double?
        public let pathWidthKm: Double?
        public let sunAltitudeDeg: Double
    }

    public enum Curve: String, Sendable, CaseIterable {
        case northernLimit = "northern-limit", southernLimit = "southern-limit"
        case penumbralNorthernLimit = "penumbral-northern-limit", penumbralSouthernLimit = "penumbral-southern-limit"
        case beginsAtSunrise = "partial-begins-at-sunrise", beginsAtSunset = "partial-begins-at-sunset"
        case endsAtSunrise = "partial-ends-at-sunrise", endsAtSunset = "partial-ends-at-sunset"
    }

    public let central: [CentralPoint]
    public let curves: [Curve: [[Place]]]
    /// Seconds between the central line's points and between the other curves' (at most).
    public static let centralStepSeconds = 60.0
    public static let curveStepSeconds = 120.0
}

extension SolarEclipse {
    /// The eclipse's path on the Earth (``EclipsePath``).
    public func path() -> EclipsePath {
        let e = elements
        var central: [EclipsePath.CentralPoint] = []
        if let b = centralBegin, let f = centralEnd {
            let a = SkyEngine.tdbSeconds(b), z = SkyEngine.tdbSeconds(f)
            for t in Self.steps(from: a, to: z, step: EclipsePath.centralStepSeconds) {
                // Grazing ends: the axis meets the Earth only where it is tangent; nudge inward.
                guard let p = e.axisPoint(t) ?? e.axisPoint(t + (t == a ? 0.5 : -0.5)) else { continue }
                let local = LocalShadow(e, point: p)
                let duration = local.centralContacts(around: t).map { $0.end - $0.begin }
                let geo = BesselianElements.geodetic(p)
                central.append(.init(place: .init(instant: SkyEngine.instant(tdbSeconds: t), latitudeDeg: geo.latitudeDeg, longitudeDeg: geo.longitudeDeg),
                                     durationSeconds: duration, pathWidthKm: e.pathWidthKm(at: p, t), sunAltitudeDeg: local.sunHorizontal(t).altitudeDeg))
            }
        }
        var curves: [EclipsePath.Curve: [[EclipsePath.Place]]] = [:]
        let p1 = SkyEngine.tdbSeconds(partialBegin), p4 = SkyEngine.tdbSeconds(partialEnd)
        if type != .partial {
            // The umbra touches the Earth while the axis is within |l2| of the limb.
            let touching = SkyTrack.roots(from: p1, to: p4, step: 300) { t in e.axisToLimb(t) - 1 - abs(e.l2.value(t)) - 0.002 }
            let limits = e.limits(umbral: true, from: touching.first ?? p1, to: touching.count > 1 ? touching.last! : p4)
            curves[.northernLimit] = limits.north
            curves[.southernLimit] = limits.south
        }
        let penumbral = e.limits(umbral: false, from: p1, to: p4)
        curves[.penumbralNorthernLimit] = penumbral.north
        curves[.penumbralSouthernLimit] = penumbral.south
        for (k, v) in e.horizonCurves(from: p1, to: p4) { curves[k] = v }
        return EclipsePath(central: central, curves: curves)
    }

    /// `a`, `a + step`, …, `b` (both ends included).
    static func steps(from a: Double, to b: Double, step: Double) -> [Double] {
        guard b > a else { return [a] }
        let n = Int(((b - a) / step).rounded(.up))
        return (0...n).map { min(b, a + Double($0) * step) }
    }
}

extension BesselianElements {
    /// F = Δ − L at an Earth-fixed point at `t`: negative inside the penumbra (or the umbra).
    func edgeDistance(_ r: Vector3, _ t: Double, umbral: Bool) -> Double { frame(t).edgeDistance(r, umbral: umbral) }

    /// The northern and southern limits of the umbra (`umbral`) or penumbra between `a` and `b`:
    /// at each time, the points of the shadow's edge where the edge stops advancing over the
    /// ground (F = 0 and ∂F/∂t = 0 for the Earth-fixed point): there the local eclipse only
    /// grazes. North is the left of the shadow's motion.
    func limits(umbral: Bool, from a: Double, to b: Double) -> (north: [[EclipsePath.Place]], south: [[EclipsePath.Place]]) {
        var north = CurveBuilder(), south = CurveBuilder()
        let qSteps = 32
        for t in SolarEclipse.steps(from: a, to: b, step: umbral ? EclipsePath.centralStepSeconds : EclipsePath.curveStepSeconds) {
            let now = frame(t), before = frame(t - 1), after = frame(t + 1)
            func rate(_ q: Double) -> Double? {
                guard let r = now.edgePoint(q, umbral: umbral) else { return nil }
                return after.edgeDistance(r, umbral: umbral) - before.edgeDistance(r, umbral: umbral)
            }
            var found: [(q: Double, point: Vector3)] = []
            var q0 = 0.0, g0 = rate(0)
            for i in 1...qSteps {
                let q1 = 2 * Double.pi * Double(i) / Double(qSteps), g1 = rate(q1)
                if let ga = g0, let gb = g1, (ga < 0) != (gb < 0) {
                    var lo = q0, hi = q1, flo = ga
                    for _ in 0..<18 {
                        let mid = (lo + hi) / 2
                        guard let fm = rate(mid) else { break }
                        if (fm < 0) == (flo < 0) { lo = mid; flo = fm } else { hi = mid }
                    }
                    // Where ∂F/∂t changes sign the edge stops advancing: a limit if F has a
                    // minimum there along time (the place touches the shadow and leaves it).
                    if let r = now.edgePoint((lo + hi) / 2, umbral: umbral),
                       edgeDistance(r, t + 60, umbral: umbral) > 0, edgeDistance(r, t - 60, umbral: umbral) > 0 {
                        found.append(((lo + hi) / 2, r))
                    }
                }
                q0 = q1; g0 = g1
            }
            let vx = x.derivative(t), vy = y.derivative(t)
            for (q, r) in found {
                // The edge direction (sin q, cos q) left of the motion (vx, vy): north.
                let left = vx * cos(q) - vy * sin(q) > 0
                let geo = Self.geodetic(r)
                let place = EclipsePath.Place(instant: SkyEngine.instant(tdbSeconds: t), latitudeDeg: geo.latitudeDeg, longitudeDeg: geo.longitudeDeg)
                if left { north.add(place, at: t) } else { south.add(place, at: t) }
            }
        }
        return (north.curves, south.curves)
    }

    /// Where the penumbra's edge crosses the Earth's limb (the Sun on the horizon) between `a`
    /// and `b`: there the eclipse begins or ends at sunrise or sunset.
    func horizonCurves(from a: Double, to b: Double) -> [EclipsePath.Curve: [[EclipsePath.Place]]] {
        var builders: [EclipsePath.Curve: CurveBuilder] = [:]
        let steps = 48
        for t in SolarEclipse.steps(from: a, to: b, step: EclipsePath.curveStepSeconds) {
            let now = frame(t), before = frame(t - 1), after = frame(t + 1)
            func f(_ th: Double) -> Double { now.edgeDistance(now.limbPoint(theta: th), umbral: false) }
            var th0 = 0.0, f0 = f(0)
            for i in 1...steps {
                let th1 = 2 * Double.pi * Double(i) / Double(steps), f1 = f(th1)
                if (f0 < 0) != (f1 < 0) {
                    let r = now.limbPoint(theta: SkyTrack.solve(th0, th1, f))
                    let begins = after.edgeDistance(r, umbral: false) < before.edgeDistance(r, umbral: false)
                    let rising = after.fundamental(r).z > before.fundamental(r).z
                    let curve: EclipsePath.Curve = begins ? (rising ? .beginsAtSunrise : .beginsAtSunset) : (rising ? .endsAtSunrise : .endsAtSunset)
                    let geo = Self.geodetic(r)
                    builders[curve, default: CurveBuilder()].add(.init(instant: SkyEngine.instant(tdbSeconds: t), latitudeDeg: geo.latitudeDeg, longitudeDeg: geo.longitudeDeg), at: t)
                }
                th0 = th1; f0 = f1
            }
        }
        return builders.mapValues(\.curves)
    }
}

/// Points of one curve found time step by time step, joined into segments: each point goes on
/// the segment whose last point (from the step before) is nearest, within 10°; otherwise it
/// starts a new one.
struct CurveBuilder {
    private(set) var curves: [[EclipsePath.Place]] = []
    private var lastTime = -Double.infinity
    private var open: Set<Int> = []
    private var extendedNow: Set<Int> = []

    mutating func add(_ p: EclipsePath.Place, at t: Double) {
        if t != lastTime {
            open = extendedNow
            extendedNow = []
            lastTime = t
        }
        let candidates = open.subtracting(extendedNow).map { i in (i, Self.separationDeg(curves[i].last!, p)) }.filter { $0.1 < 10 }
        if let best = candidates.min(by: { $0.1 < $1.1 }) {
            curves[best.0].append(p)
            extendedNow.insert(best.0)
        } else {
            curves.append([p])
            extendedNow.insert(curves.count - 1)
        }
    }

    static func separationDeg(_ a: EclipsePath.Place, _ b: EclipsePath.Place) -> Double {
        let r = Angle.radiansPerDegree
        let c = sin(a.latitudeDeg * r) * sin(b.latitudeDeg * r) + cos(a.latitudeDeg * r) * cos(b.latitudeDeg * r) * cos((a.longitudeDeg - b.longitudeDeg) * r)
        return acos(max(-1, min(1, c))) * Angle.degreesPerRadian
    }
}
