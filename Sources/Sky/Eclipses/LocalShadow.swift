import Glibc
import Ephemeris

/// The Moon's shadow seen from one place on the Earth through one eclipse: the place's
/// distance from the shadow axis in the fundamental plane and the penumbra's and umbra's radii
/// at its height along the axis (L1, L2), whence the contacts, the maximum, the magnitude.
struct LocalShadow: Sendable {
    let elements: BesselianElements
    /// The place, Earth-fixed, Earth equatorial radii, and its horizon.
    let position: Vector3
    let up: Vector3
    let east: Vector3
    let north: Vector3

    init(_ e: BesselianElements, point: Vector3) {
        elements = e
        position = point
        up = BesselianElements.geodeticUp(point)
        east = BesselianElements.east(of: up)
        north = up.cross(east)
    }

    init(_ e: BesselianElements, observer: Observer) {
        elements = e
        position = observer.terrestrialKm / SkyConstants.wgs84EquatorialRadiusKm
        up = observer.up; east = observer.east; north = observer.north
    }

    struct State {
        /// Axis minus place in the fundamental plane (east, north).
        let u: Double
        let v: Double
        let l1: Double
        let l2: Double
        var distance: Double { (u * u + v * v).squareRoot() }
    }

    @inline(__always) func state(_ t: Double) -> State {
        let e = elements
        let f = e.fundamental(position, t)
        return State(u: e.x.value(t) - f.x, v: e.y.value(t) - f.y,
                     l1: e.l1.value(t) - f.z * e.tanF1.value(t), l2: e.l2.value(t) - f.z * e.tanF2.value(t))
    }

    /// The Sun's airless altitude and azimuth from the place (the axis points at the Sun to
    /// within its 8.8″ of parallax).
    func sunHorizontal(_ t: Double) -> (altitudeDeg: Double, azimuthDeg: Double) {
        let z = elements.basis(t).z
        let alt = asin(max(-1, min(1, z.dot(up)))) * Angle.degreesPerRadian
        return (alt, Angle.normalizedDegrees(atan2(z.dot(east), z.dot(north)) * Angle.degreesPerRadian))
    }

    struct Times {
        let partialBegin: Double
        let maximum: Double
        let partialEnd: Double
        let centralBegin: Double?
        let centralEnd: Double?
    }

    /// The place's maximum (closest to the axis) and its contacts, TDB seconds; nil where the
    /// penumbra passes it by.
    func circumstances() -> Times? {
        let e = elements
        func d2(_ t: Double) -> Double { let s = state(t); return s.u * s.u + s.v * s.v }
        guard let tm = SkyTrack.minima(from: e.start, to: e.stop, step: BesselianElements.scanSeconds, d2).min(by: { d2($0) < d2($1) }) else { return nil }
        let m = state(tm)
        guard m.distance < m.l1 else { return nil }
        func partial(_ t: Double) -> Double { let s = state(t); return s.distance - s.l1 }
        func central(_ t: Double) -> Double { let s = state(t); return s.distance - abs(s.l2) }
        let c1 = SkyTrack.roots(from: e.start, to: tm, step: BesselianElements.scanSeconds) { partial($0) }.last ?? e.start
        let c4 = SkyTrack.roots(from: tm, to: e.stop, step: BesselianElements.scanSeconds) { partial($0) }.first ?? e.stop
        var c2: Double?, c3: Double?
        if m.distance < abs(m.l2) {
            c2 = SkyTrack.roots(from: c1, to: tm, step: BesselianElements.scanSeconds) { central($0) }.last
            c3 = SkyTrack.roots(from: tm, to: c4, step: BesselianElements.scanSeconds) { central($0) }.first
        }
        return Times(partialBegin: c1, maximum: tm, partialEnd: c4, centralBegin: c2, centralEnd: c3)
    }

    /// The central phase around `t`, a moment inside it (a central-line point's own time): its
    /// second and third contacts, at most 12 minutes either side (a central phase lasts at most
    /// 12.5 minutes in all), or nil where the place is not in the umbra at `t`.
    func centralContacts(around t: Double) -> (begin: Double, end: Double)? {
        func central(_ x: Double) -> Double { let s = state(x); return s.distance - abs(s.l2) }
        guard central(t) < 0,
              let begin = SkyTrack.roots(from: t - 720, to: t, step: 120, central).last,
              let end = SkyTrack.roots(from: t, to: t + 720, step: 120, central).first else { return nil }
        return (begin, end)
    }

    /// A contact: the time, the Sun's place and the position angle of the Moon's centre from the
    /// Sun's (`flipped`: the point of contact opposite it, a total eclipse's second and third).
    func contact(_ t: Double, flipped: Bool = false) -> EclipseContact {
        let s = state(t), h = sunHorizontal(t)
        let pa = Angle.normalizedDegrees(atan2(s.u, s.v) * Angle.degreesPerRadian + (flipped ? 180 : 0))
        return EclipseContact(instant: SkyEngine.instant(tdbSeconds: t), altitudeDeg: h.altitudeDeg, azimuthDeg: h.azimuthDeg, positionAngleDeg: pa)
    }

    /// Magnitude (central: the diameters' ratio) and obscuration (the hidden fraction of the
    /// Sun's disc) at `t`.
    func magnitudeAndObscuration(_ t: Double) -> (magnitude: Double, obscuration: Double) {
        let s = state(t)
        let sun = (s.l1 + s.l2) / 2, moon = (s.l1 - s.l2) / 2, d = s.distance
        if d <= abs(s.l2) {
            let ratio = moon / sun
            return (ratio, min(1, ratio * ratio))
        }
        let magnitude = (s.l1 - d) / (s.l1 + s.l2)
        return (magnitude, Self.overlapFraction(sun: sun, moon: moon, distance: d))
    }

    /// The fraction of a disc of radius `sun` covered by one of radius `moon` whose centre is
    /// `distance` away (the lens of two circles).
    static func overlapFraction(sun r: Double, moon q: Double, distance d: Double) -> Double {
        if d >= r + q { return 0 }
        if d <= abs(q - r) { return min(1, (q * q) / (r * r)) }
        let a = acos(max(-1, min(1, (d * d + r * r - q * q) / (2 * d * r))))
        let b = acos(max(-1, min(1, (d * d + q * q - r * r) / (2 * d * q))))
        let lens = r * r * a + q * q * b - 0.5 * ((-d + r + q) * (d + r - q) * (d - r + q) * (d + r + q)).squareRoot()
        return lens / (Double.pi * r * r)
    }
}

extension SolarEclipse {
    /// The eclipse seen from `observer`, or nil where the penumbra misses the place. Contacts
    /// below the horizon are kept (their altitude says so).
    public func seen(from observer: Observer) -> LocalSolarEclipse? {
        let local = LocalShadow(elements, observer: observer)
        guard let c = local.circumstances() else { return nil }
        let max = local.state(c.maximum)
        let central = c.centralBegin != nil && c.centralEnd != nil
        let type: LocalSolarEclipse.Kind = central ? (max.l2 < 0 ? .total : .annular) : .partial
        let mo = local.magnitudeAndObscuration(c.maximum)
        let total = type == .total
        return LocalSolarEclipse(
            eclipse: self, type: type, magnitude: mo.magnitude, obscuration: mo.obscuration,
            partialBegin: local.contact(c.partialBegin),
            centralBegin: central ? local.contact(c.centralBegin!, flipped: total) : nil,
            maximum: local.contact(c.maximum),
            centralEnd: central ? local.contact(c.centralEnd!, flipped: total) : nil,
            partialEnd: local.contact(c.partialEnd))
    }
}
