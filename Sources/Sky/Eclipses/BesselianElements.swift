import Glibc
import Ephemeris

/// Besselian elements of one solar eclipse (Explanatory Supplement 1992, ch. 8): the Moon's
/// shadow axis seen in the fundamental plane through the Earth's centre, perpendicular to the
/// axis (x east, y north, Earth equatorial radii), the axis's declination d and Greenwich hour
/// angle μ, the radii l1, l2 of the penumbra and umbra in that plane and their cones' half-angles
/// f1, f2 — each as a Chebyshev series over the window, from the DE440 geometry at its nodes.
struct BesselianElements: Sendable {
    let start: Double
    let stop: Double
    let x: ChebyshevFit
    let y: ChebyshevFit
    let d: ChebyshevFit
    let mu: ChebyshevFit
    let l1: ChebyshevFit
    let l2: ChebyshevFit
    let tanF1: ChebyshevFit
    let tanF2: ChebyshevFit
    let deltaTSeconds: Double
    let deltaTSource: String

    static let flattening = SkyConstants.wgs84Flattening
    static let polarScale = 1 / (1 - flattening)

    init(_ track: SyzygyTrack, conventions: EclipseConventions) {
        let k = conventions.k
        let rs = EclipseConstants.sunRadiusEarthRadii
        var xs: [Double] = [], ys: [Double] = [], ds: [Double] = [], mus: [Double] = []
        var l1s: [Double] = [], l2s: [Double] = [], t1s: [Double] = [], t2s: [Double] = []
        for i in track.nodes.indices {
            let s = track.sun[i], m = track.moon[i]
            let g = s - m
            let gl = g.length
            let z = g / gl
            let a = atan2(z.y, z.x)
            let ex = Vector3(-sin(a), cos(a), 0)
            let ey = z.cross(ex)
            xs.append(m.dot(ex)); ys.append(m.dot(ey)); ds.append(asin(z.z))
            var mu = track.gast[i] - a
            if let last = mus.last { mu = last + Angle.normalizedSignedRadians(mu - last) }
            mus.append(mu)
            let zm = m.dot(z)
            let f1 = asin((rs + k.penumbral) / gl), f2 = asin((rs - k.umbral) / gl)
            t1s.append(tan(f1)); t2s.append(tan(f2))
            l1s.append(zm * tan(f1) + k.penumbral / cos(f1))
            l2s.append(zm * tan(f2) - k.umbral / cos(f2))
        }
        func fit(_ v: [Double]) -> ChebyshevFit { ChebyshevFit(from: track.start, to: track.stop, values: v) }
        start = track.start; stop = track.stop
        x = fit(xs); y = fit(ys); d = fit(ds); mu = fit(mus)
        l1 = fit(l1s); l2 = fit(l2s); tanF1 = fit(t1s); tanF2 = fit(t2s)
        deltaTSeconds = track.deltaTSeconds
        deltaTSource = track.deltaTSource
    }

    /// The fundamental axes (east, north, toward the Sun) in the Earth-fixed frame at `t`.
    @inline(__always) func basis(_ t: Double) -> (x: Vector3, y: Vector3, z: Vector3) {
        let dv = d.value(t), m = mu.value(t)
        let sd = sin(dv), cd = cos(dv), sm = sin(m), cm = cos(m)
        return (Vector3(sm, cm, 0), Vector3(-sd * cm, sd * sm, cd), Vector3(cd * cm, -cd * sm, sd))
    }

    /// Every element at `t`, evaluated once (the path's searches use each many times).
    func frame(_ t: Double) -> ShadowFrame {
        let b = basis(t)
        return ShadowFrame(ex: b.x, ey: b.y, ez: b.z, x: x.value(t), y: y.value(t), l1: l1.value(t), l2: l2.value(t),
                           tanF1: tanF1.value(t), tanF2: tanF2.value(t))
    }

    /// An Earth-fixed point (Earth radii) in fundamental coordinates (ξ, η, ζ) at `t`.
    @inline(__always) func fundamental(_ r: Vector3, _ t: Double) -> Vector3 {
        let b = basis(t)
        return Vector3(r.dot(b.x), r.dot(b.y), r.dot(b.z))
    }

    /// The Earth-fixed point (Earth radii) with fundamental coordinates ξ, η on the sunward side
    /// of the ellipsoid at `t`, or nil where that line misses it.
    func surfacePoint(xi: Double, eta: Double, _ t: Double) -> Vector3? { frame(t).surfacePoint(xi: xi, eta: eta) }

    /// Where the shadow axis meets the Earth at `t`, if it does.
    func axisPoint(_ t: Double) -> Vector3? { surfacePoint(xi: x.value(t), eta: y.value(t), t) }

    /// NASA's point of greatest eclipse where the axis misses the Earth: the limb of a
    /// spherical Earth (unit radius) in the axis's direction, seen along the axis; its latitude
    /// is the angle from the equator (`asin z`). Espenak's catalogue gives these places so
    /// (within 0.05° in latitude, 0.085° in longitude over 1901–2100); the ellipsoid's own limb
    /// point nearest the axis (``limbPointNearestAxis(_:)``, where the magnitude is taken) is
    /// up to 0.2° from it, geodetic.
    func sphericalLimbTowardAxis(_ t: Double) -> (latitudeDeg: Double, longitudeDeg: Double) {
        let b = basis(t), ax = x.value(t), ay = y.value(t)
        let p = (b.x * ax + b.y * ay) / (ax * ax + ay * ay).squareRoot()
        return (asin(p.z) * Angle.degreesPerRadian, atan2(p.y, p.x) * Angle.degreesPerRadian)
    }

    /// The point of the ellipsoid's limb (the Sun on the horizon) nearest the axis at `t`: the
    /// silhouette point in the axis's direction, refined by Newton steps on the angle around it.
    func limbPointNearestAxis(_ t: Double) -> Vector3 {
        let ax = x.value(t), ay = y.value(t)
        var theta = atan2(ay, ax)
        func distance(_ th: Double) -> Double {
            let p = fundamental(limbPoint(theta: th, t), t)
            return hypot(ax - p.x, ay - p.y)
        }
        for _ in 0..<4 {
            let h = 1e-4
            let f0 = distance(theta - h), f1 = distance(theta), f2 = distance(theta + h)
            let second = (f2 - 2 * f1 + f0) / (h * h)
            guard second > 0 else { break }
            theta -= (f2 - f0) / (2 * h) / second
        }
        return limbPoint(theta: theta, t)
    }

    /// The silhouette point of the ellipsoid seen along the axis at `t` (``ShadowFrame/limbPoint(theta:)``).
    func limbPoint(theta: Double, _ t: Double) -> Vector3 { frame(t).limbPoint(theta: theta) }

    /// Geodetic latitude and longitude (degrees, east positive) of an Earth-fixed point on the
    /// ellipsoid.
    static func geodetic(_ r: Vector3) -> (latitudeDeg: Double, longitudeDeg: Double) {
        let q = 1 - flattening
        let lat = atan2(r.z, q * q * (r.x * r.x + r.y * r.y).squareRoot()) * Angle.degreesPerRadian
        return (lat, atan2(r.y, r.x) * Angle.degreesPerRadian)
    }

    /// The Earth-fixed point (Earth radii) at geodetic latitude and longitude on the ellipsoid.
    static func surface(latitudeDeg: Double, longitudeDeg: Double) -> Vector3 {
        let f = flattening, e2 = f * (2 - f)
        let phi = latitudeDeg * Angle.radiansPerDegree, lambda = longitudeDeg * Angle.radiansPerDegree
        let n = 1 / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
        return Vector3(n * cos(phi) * cos(lambda), n * cos(phi) * sin(lambda), n * (1 - e2) * sin(phi))
    }
}

/// The Besselian elements at one instant: the fundamental axes in the Earth-fixed frame and the
/// shadow's position and radii.
struct ShadowFrame {
    let ex: Vector3
    let ey: Vector3
    let ez: Vector3
    let x: Double
    let y: Double
    let l1: Double
    let l2: Double
    let tanF1: Double
    let tanF2: Double

    @inline(__always) func fundamental(_ r: Vector3) -> Vector3 { Vector3(r.dot(ex), r.dot(ey), r.dot(ez)) }

    /// The Earth-fixed point (Earth radii) with fundamental coordinates ξ, η on the sunward side
    /// of the ellipsoid, or nil where that line misses it.
    func surfacePoint(xi: Double, eta: Double) -> Vector3? {
        let p = ex * xi + ey * eta
        let q = BesselianElements.polarScale
        let sp = Vector3(p.x, p.y, p.z * q), sz = Vector3(ez.x, ez.y, ez.z * q)
        let a = sz.lengthSquared, h = sp.dot(sz), c = sp.lengthSquared - 1
        let disc = h * h - a * c
        guard disc >= 0 else { return nil }
        return p + ez * ((-h + disc.squareRoot()) / a)
    }

    /// The silhouette point of the ellipsoid seen along the axis, in the direction `theta`
    /// (from ξ toward η) of the fundamental plane: on the surface, its normal perpendicular to
    /// the axis.
    func limbPoint(theta: Double) -> Vector3 {
        let q2 = BesselianElements.polarScale * BesselianElements.polarScale
        func stretched(_ v: Vector3) -> Vector3 { Vector3(v.x, v.y, v.z * q2) }
        let dir = ex * cos(theta) + ey * sin(theta)
        // Normal ∝ S²P; S²P · Z = 0 fixes the axial component for the in-plane direction.
        let c = -stretched(dir).dot(ez) / stretched(ez).dot(ez)
        let p = dir + ez * c
        return p * (1 / Vector3(p.x, p.y, p.z * BesselianElements.polarScale).length)
    }

    /// F = Δ − L at an Earth-fixed point: negative inside the penumbra (or the umbra).
    @inline(__always) func edgeDistance(_ r: Vector3, umbral: Bool) -> Double {
        let f = fundamental(r)
        let u = x - f.x, v = y - f.y
        let l = umbral ? abs(l2 - f.z * tanF2) : l1 - f.z * tanF1
        return (u * u + v * v).squareRoot() - l
    }

    /// The point of the shadow's edge at angle `q` (from north through east around the axis) on
    /// the sunward side of the Earth, or nil where that edge is off the Earth.
    func edgePoint(_ q: Double, umbral: Bool) -> Vector3? {
        let lz = umbral ? l2 : l1, tz = umbral ? tanF2 : tanF1
        var radius = abs(lz), point: Vector3?
        for _ in 0..<3 {
            guard let p = surfacePoint(xi: x + radius * sin(q), eta: y + radius * cos(q)) else { return nil }
            point = p
            radius = abs(lz - fundamental(p).z * tz)
        }
        return point
    }
}
