import Ephemeris
import Satellites
import Sky

/// One entry of a `/v1/sky/events` answer: a body's event, or a satellite's pass (dated at its
/// culmination, with its rise, set and visibility).
enum SkyEventItem: Sendable {
    case event(SkyEvent)
    case pass(String, SatellitePass)
    /// A solar eclipse seen from the place (dated at its maximum), a lunar one (at greatest),
    /// an occultation (at the disappearance).
    case solarEclipse(LocalSolarEclipse)
    case lunarEclipse(LocalLunarEclipse)
    case occultation(Occultation)

    var instant: Instant {
        switch self {
        case let .event(e): return e.instant
        case let .pass(_, p): return p.culmination.instant
        case let .solarEclipse(l): return l.maximum.instant
        case let .lunarEclipse(l): return l.greatest.instant
        case let .occultation(o): return o.disappearance.instant
        }
    }

    /// The body, kind, date and the body's place of an entry that is not a pass.
    var summary: (body: String, kind: String, instant: Instant, azimuthDeg: Double, altitudeDeg: Double)? {
        switch self {
        case let .event(e): return (e.id, e.kind.rawValue, e.instant, e.azimuthDeg, e.altitudeDeg)
        case .pass: return nil
        case let .solarEclipse(l): return ("sun", "solar-eclipse", l.maximum.instant, l.maximum.azimuthDeg, l.maximum.altitudeDeg)
        case let .lunarEclipse(l): return ("moon", "lunar-eclipse", l.greatest.instant, l.greatest.azimuthDeg, l.greatest.altitudeDeg)
        case let .occultation(o): return ("moon", "occultation", o.disappearance.instant, o.disappearance.moonAzimuthDeg, o.disappearance.moonAltitudeDeg)
        }
    }

    func write(into w: inout JSONWriter, satellites: [(satellite: Satellite, name: String)]) {
        if let s = summary {
            w.key("body"); w.string(s.body)
            w.key("kind"); w.string(s.kind)
            w.key("date"); w.string(s.instant.iso8601)
            w.key("jdTT"); w.number(s.instant.jdTT)
            w.key("azimuthDeg"); w.number(SkyEncoding.round6(s.azimuthDeg))
            w.key("altitudeDeg"); w.number(SkyEncoding.round6(s.altitudeDeg))
        }
        switch self {
        case .event: break
        case let .solarEclipse(l): w.key("eclipse"); w.object { w in EclipseEncoding.localSolar(l, into: &w) }
        case let .lunarEclipse(l):
            w.key("eclipse"); w.object { w in EclipseEncoding.lunar(l.eclipse, into: &w, local: l); w.key("visible"); w.bool(l.visible) }
        case let .occultation(o): w.key("occultation"); w.object { w in EclipseEncoding.occultation(o, into: &w) }
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
        case .event, .solarEclipse, .lunarEclipse, .occultation:
            if let s = summary { row(s.body, s.kind, s.instant, s.azimuthDeg, s.altitudeDeg) }
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
    static let seenDefinitions = "; solar-eclipse: dated at the place's maximum, the Sun's airless altitude then; lunar-eclipse: at greatest eclipse, the Moon's airless altitude then; occultation: the Moon covering a planet's or bright star's centre, dated at the disappearance, the Moon's airless altitude then (contacts in eclipse/occultation)"
    static let passDefinitions = "; pass: a satellite above minAltitudeDeg (geometric altitude, no refraction), dated at its culmination, rise and set where the altitude crosses minAltitudeDeg (null when outside the search: half an orbit around start and stop); visible: sunlit (whole solar disc) while the Sun's centre is below -6 deg for the observer, visibleFrom/visibleTo its first and last moments"
}
