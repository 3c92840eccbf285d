import Ephemeris
import Satellites
import Sky

/// One entry of a `/v1/sky/events` answer: a body's event, or a satellite's pass (dated at its
/// culmination, with its rise, set and visibility).
enum SkyEventItem: Sendable {
    case event(SkyEvent)
    case pass(String, SatellitePass)

    var instant: Instant {
        switch self {
        case let .event(e): return e.instant
        case let .pass(_, p): return p.culmination.instant
        }
    }

    func write(into w: inout JSONWriter, satellites: [(satellite: Satellite, name: String)]) {
        switch self {
        case let .event(e):
            w.key("body"); w.string(e.id)
            w.key("kind"); w.string(e.kind.rawValue)
            w.key("date"); w.string(e.instant.iso8601)
            w.key("jdTT"); w.number(e.instant.jdTT)
            w.key("azimuthDeg"); w.number(SkyEncoding.round6(e.azimuthDeg))
            w.key("altitudeDeg"); w.number(SkyEncoding.round6(e.altitudeDeg))
        case let .pass(name, p):
            w.key("body"); w.string(name)
            w.key("kind"); w.string("pass")
            w.key("date"); w.string(p.culmination.instant.iso8601)
            w.key("jdTT"); w.number(p.culmination.instant.jdTT)
            w.key("azimuthDeg"); w.number(SkyEncoding.round6(p.culmination.azimuthDeg))
            w.key("altitudeDeg"); w.number(SkyEncoding.round6(p.culmination.altitudeDeg))
            Self.write("rise", p.rise, into: &w)
            Self.write("culmination", p.culmination, into: &w)
            Self.write("set", p.set, into: &w)
            w.key("visible"); w.bool(p.visible)
            Self.write("visibleFrom", p.visibleFrom, into: &w)
            Self.write("visibleTo", p.visibleTo, into: &w)
            if let s = satellites.first(where: { $0.name == name })?.satellite {
                let epoch = EphemerisService.epoch(s)
                let age = p.culmination.instant.seconds(since: epoch) / 86_400
                w.key("noradId"); w.int(s.noradID)
                w.key("elementSetEpoch"); w.string(epoch.iso8601)
                w.key("elementSetAgeDays"); w.number(SkyEncoding.round6(age))
                w.key("stale"); w.bool(abs(age) > SatelliteAnnotation.staleAfterDays)
            }
        }
    }

    static func write(_ key: String, _ point: SatellitePass.Point?, into w: inout JSONWriter) {
        w.key(key)
        guard let point else { return w.null() }
        w.object { w in
            w.key("date"); w.string(point.instant.iso8601)
            w.key("azimuthDeg"); w.number(SkyEncoding.round6(point.azimuthDeg))
            w.key("altitudeDeg"); w.number(SkyEncoding.round6(point.altitudeDeg))
        }
    }

    /// CSV rows: a body's event is one; a pass is `pass-rise`, `pass-culmination`, `pass-set`
    /// and, when visible, `pass-visible-from` and `pass-visible-to`, in time order.
    func csv(into out: inout String) {
        func row(_ body: String, _ kind: String, _ t: Instant, _ az: Double, _ alt: Double) {
            out += "\(t.iso8601),\(body),\(kind),\(SkyEncoding.round6(az)),\(SkyEncoding.round6(alt))\n"
        }
        switch self {
        case let .event(e):
            row(e.id, e.kind.rawValue, e.instant, e.azimuthDeg, e.altitudeDeg)
        case let .pass(name, p):
            var points: [(String, SatellitePass.Point)] = [("pass-culmination", p.culmination)]
            if let r = p.rise { points.append(("pass-rise", r)) }
            if let s = p.set { points.append(("pass-set", s)) }
            if let f = p.visibleFrom { points.append(("pass-visible-from", f)) }
            if let t = p.visibleTo { points.append(("pass-visible-to", t)) }
            for (kind, pt) in points.sorted(by: { $0.1.instant < $1.1.instant }) { row(name, kind, pt.instant, pt.azimuthDeg, pt.altitudeDeg) }
        }
    }
}

extension SkyEncoding {
    static let passDefinitions = "; pass: a satellite above minAltitudeDeg (geometric altitude, no refraction), dated at its culmination, rise and set where the altitude crosses minAltitudeDeg (null when outside the search: half an orbit around start and stop); visible: sunlit (whole solar disc) while the Sun's centre is below -6 deg for the observer, visibleFrom/visibleTo its first and last moments"
}
