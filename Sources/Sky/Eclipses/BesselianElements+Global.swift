import Glibc
import Ephemeris

extension BesselianElements {
    /// Scan step for the brackets of the roots solved below, seconds.
    static let scanSeconds = 900.0

    /// Greatest eclipse: the axis closest to the Earth's centre (x² + y² least).
    func greatestTime() -> Double {
        func r2(_ t: Double) -> Double { let a = x.value(t), b = y.value(t); return a * a + b * b }
        return (SkyTrack.minima(from: start, to: stop, step: Self.scanSeconds, r2) + [start, stop]).min { r2($0) < r2($1) }!
    }

    /// sin² of the half-axis of the Earth's silhouette along η, for the axis's declination.
    @inline(__always) func silhouetteRho(_ t: Double) -> Double {
        let f = Self.flattening, e2 = f * (2 - f), c = cos(d.value(t))
        return (1 - e2 * c * c).squareRoot()
    }

    /// The axis's distance from the Earth's centre in units of the silhouette (1: grazing).
    @inline(__always) func axisToLimb(_ t: Double) -> Double {
        let a = x.value(t), b = y.value(t) / silhouetteRho(t)
        return (a * a + b * b).squareRoot()
    }

    /// The eclipse these elements describe, or nil where the penumbra misses the Earth.
    func eclipse(lunation: Int, conventions: EclipseConventions) -> SolarEclipse? {
        let tg = greatestTime()
        // Central when the axis meets the ellipsoid (the silhouette's ellipse is a hair from the
        // exact limb: a grazing axis is decided by the exact intersection).
        let axis = axisToLimb(tg) < 1 ? axisPoint(tg) : nil
        let central = axis != nil
        let point = axis ?? limbPointNearestAxis(tg)
        let local = LocalShadow(self, point: point)
        let g = local.state(tg)
        guard g.distance < g.l1 else { return nil }
        let ax = x.value(tg), ay = y.value(tg)
        let inCentral = g.distance < abs(g.l2)
        var type: SolarEclipseType = inCentral ? (g.l2 < 0 ? .total : .annular) : .partial
        // The central phase's ends, where the axis leaves the Earth: ζ = 0 there, so L2 = l2.
        let before = central ? SkyTrack.roots(from: start, to: tg, step: Self.scanSeconds) { axisToLimb($0) - 1 }.last : nil
        let after = central ? SkyTrack.roots(from: tg, to: stop, step: Self.scanSeconds) { axisToLimb($0) - 1 }.first : nil
        if central, type == .total, [before, after].contains(where: { $0.map { l2.value($0) > 0 } ?? false }) { type = .hybrid }
        // Central: the diameters' ratio on the axis; otherwise (non-central total and annular
        // eclipses too, as NASA) the fraction of the Sun's diameter hidden at the point.
        let magnitude = central ? (g.l1 - g.l2) / (g.l1 + g.l2) : (g.l1 - g.distance) / (g.l1 + g.l2)
        let geo = central ? Self.geodetic(point) : sphericalLimbTowardAxis(tg)
        let sun = local.sunHorizontal(tg)
        var duration: Double?
        var width: Double?
        if central, type != .partial, let c = local.circumstances() {
            if let b = c.centralBegin, let e = c.centralEnd { duration = e - b }
            width = pathWidthKm(at: point, tg)
        }
        // The penumbra's first and last touch: the axis l1 beyond the silhouette.
        func edge(_ t: Double) -> Double { axisToLimb(t) - 1 - l1.value(t) }
        let p1 = SkyTrack.roots(from: start, to: tg, step: Self.scanSeconds) { edge($0) }.last ?? start
        let p4 = SkyTrack.roots(from: tg, to: stop, step: Self.scanSeconds) { edge($0) }.first ?? stop
        let greatest = SkyEngine.instant(tdbSeconds: tg)
        return SolarEclipse(
            id: SkyEngine.eclipseID(greatest, kind: "solar"), type: type, central: central,
            saros: SkyEngine.saros(lunation: lunation, solar: true), lunation: lunation, greatest: greatest,
            greatestLatitudeDeg: geo.latitudeDeg, greatestLongitudeDeg: geo.longitudeDeg,
            sunAltitudeDeg: central ? sun.altitudeDeg : max(0, sun.altitudeDeg), sunAzimuthDeg: sun.azimuthDeg,
            gamma: (ax * ax + ay * ay).squareRoot() * (ay < 0 ? -1 : 1), magnitude: magnitude,
            pathWidthKm: width, centralDurationSeconds: duration,
            partialBegin: SkyEngine.instant(tdbSeconds: p1), partialEnd: SkyEngine.instant(tdbSeconds: p4),
            centralBegin: before.map { SkyEngine.instant(tdbSeconds: $0) }, centralEnd: after.map { SkyEngine.instant(tdbSeconds: $0) },
            deltaTSeconds: deltaTSeconds, deltaTSource: deltaTSource, conventions: conventions, elements: self)
    }

    /// Width of the central path through `point` at `t`, km: the umbra's footprint on the
    /// ground (its circle in the fundamental plane projected along the axis onto the tangent
    /// plane: an ellipse) swept along the shadow's ground track; the width is twice the
    /// ellipse's extent across the track.
    func pathWidthKm(at point: Vector3, _ t: Double) -> Double? {
        guard let ahead = axisPoint(t + 30), let behind = axisPoint(t - 30) else { return nil }
        let up = Self.geodeticUp(point)
        let east = BesselianElements.east(of: up)
        let north = up.cross(east)
        let b = basis(t)
        // Tangent-plane (east, north) → fundamental (ξ, η): M = [[e·X, n·X], [e·Y, n·Y]].
        let m11 = east.dot(b.x), m12 = north.dot(b.x), m21 = east.dot(b.y), m22 = north.dot(b.y)
        // A = MᵀM, the footprint {g : gᵀ A g ≤ L2²}; its extent along n is L2 √(nᵀ A⁻¹ n).
        let a11 = m11 * m11 + m21 * m21, a12 = m11 * m12 + m21 * m22, a22 = m12 * m12 + m22 * m22
        let det = a11 * a22 - a12 * a12
        guard det > 0 else { return nil }
        let v = ahead - behind
        let ve = v.dot(east), vn = v.dot(north), vl = (ve * ve + vn * vn).squareRoot()
        guard vl > 0 else { return nil }
        let ne = -vn / vl, nn = ve / vl
        let quadratic = (a22 * ne * ne - 2 * a12 * ne * nn + a11 * nn * nn) / det
        let zeta = point.dot(b.z)
        let l2Here = abs(l2.value(t) - zeta * tanF2.value(t))
        return 2 * l2Here * quadratic.squareRoot() * SkyConstants.wgs84EquatorialRadiusKm
    }

    /// The local east for a vertical `up` (at a pole, where east is undefined, the direction
    /// of longitude 90°).
    static func east(of up: Vector3) -> Vector3 {
        let e = Vector3(-up.y, up.x, 0)
        return e.length > 1e-12 ? e.normalized : Vector3(0, 1, 0)
    }

    /// The geodetic vertical at an Earth-fixed point of the ellipsoid.
    static func geodeticUp(_ r: Vector3) -> Vector3 {
        let q = polarScale * polarScale
        return Vector3(r.x, r.y, r.z * q).normalized
    }
}
