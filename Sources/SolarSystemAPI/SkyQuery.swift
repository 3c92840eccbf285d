import Ephemeris
import HTTPCore
import Sky

/// The observer, atmosphere and body list every sky route reads, validated.
struct SkyQuery: Sendable, Hashable {
    let observer: Observer
    let atmosphere: Atmosphere?
    let bodies: [BodyID]

    static let observerParameters: Set<String> = ["lat", "lon", "elevation"]
    static let atmosphereParameters: Set<String> = ["refraction", "temperature", "pressure"]

    /// `lat`, `lon` (required) and `elevation` (metres, default 0).
    static func observer(_ q: QueryParameters) throws(ProblemDetails) -> Observer {
        let lat = try number(q, "lat", required: true)
        let lon = try number(q, "lon", required: true)
        let elevation = try number(q, "elevation", required: false) ?? 0
        do {
            return try Observer(latitudeDeg: lat ?? .nan, longitudeDeg: lon ?? .nan, elevationM: elevation)
        } catch {
            throw .invalidParameter(error.parameter, value: (try? q.string(error.parameter)).flatMap { $0 } ?? "", accepted: error.accepted, reason: "out of range")
        }
    }

    private static func number(_ q: QueryParameters, _ name: String, required: Bool) throws(ProblemDetails) -> Double? {
        let accepted: String
        switch name {
        case "lat": accepted = ObserverError.latitude(0).accepted
        case "lon": accepted = ObserverError.longitude(0).accepted
        default: accepted = ObserverError.elevation(0).accepted
        }
        guard let raw = try q.string(name) else {
            if required { throw ProblemDetails.missingParameter(name, accepted: accepted) }
            return nil
        }
        guard let v = DecimalNumber.double(raw) else { throw ProblemDetails.invalidParameter(name, value: raw, accepted: accepted, reason: "not a finite decimal number") }
        return v
    }

    /// `refraction` (default true), `temperature` (°C, default 10) and `pressure` (hPa, default 1010).
    static func atmosphere(_ q: QueryParameters) throws(ProblemDetails) -> Atmosphere? {
        let on = try q.bool("refraction", default: true)
        let t = try q.double("temperature", in: -90...60, default: SkyConstants.standardTemperatureC)
        let p = try q.double("pressure", in: 0...1_200, default: SkyConstants.standardPressureHPa)
        return on ? Atmosphere(temperatureC: t, pressureHPa: p) : nil
    }

    /// `minAltitude` of a pass, degrees.
    static let passMinAltitudeRange = 0.0...89.0

    static let kindsAccepted = "a comma-separated list of pass, rise, set, transit, twilight, civil-dawn, civil-dusk, nautical-dawn, nautical-dusk, astronomical-dawn, astronomical-dusk, polar-day, polar-night, always-up, always-down, solar-eclipse, lunar-eclipse, occultation"

    /// The kinds that are not a body's own: the eclipses and the Moon's occultations seen from
    /// the place, given only when named.
    enum SeenKind: String, CaseIterable, Sendable { case solarEclipse = "solar-eclipse", lunarEclipse = "lunar-eclipse", occultation }

    /// `kinds` (default all of a body's kinds, passes included, no eclipses or occultations);
    /// `twilight` names the six dawns and dusks, and `rise`/`set` bring the polar days and
    /// nights (a turn without either is reported, not left out); `pass` is the satellites'
    /// (their only kind); `solar-eclipse`, `lunar-eclipse`, `occultation` add those.
    static func kinds(_ q: QueryParameters) throws(ProblemDetails) -> (kinds: Set<SkyEventKind>, passes: Bool, seen: Set<SeenKind>) {
        guard let raw = try q.string("kinds") else { return (Set(SkyEventKind.allCases), true, []) }
        var out = Set<SkyEventKind>()
        var passes = false
        var seen = Set<SeenKind>()
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            if part == "twilight" { out.formUnion(SkyEventKind.twilight); continue }
            if part == "pass" { passes = true; continue }
            if let k = SeenKind(rawValue: String(part)) { seen.insert(k); continue }
            guard let k = SkyEventKind(rawValue: String(part)) else { throw .invalidParameter("kinds", value: raw, accepted: kindsAccepted) }
            out.insert(k)
            if k == .rise || k == .set { out.formUnion([.polarDay, .polarNight, .alwaysUp, .alwaysDown]) }
        }
        return (out, passes, seen)
    }

    /// `start` (default now) and `stop` (default `start` + `defaultDays`); a `stop` before
    /// `start` gives an empty span (as the positions series do). Over `maxDays`: a 400 naming
    /// `stop`, or with `truncating` the first `maxDays` (`truncated`).
    static func span(_ q: QueryParameters, clock: () -> Double, defaultDays: Double, maxDays: Double, truncating: Bool = false) throws(ProblemDetails)
        -> (start: Instant, stop: Instant, freshness: Freshness, truncated: Bool) {
        let startRaw = try q.string("start"), stopRaw = try q.string("stop")
        let start = try QueryParsing.instant(startRaw, parameter: "start", now: clock)
        var stop = try stopRaw.map { s throws(ProblemDetails) in try QueryParsing.instant(s, parameter: "stop", now: clock) } ?? start.adding(seconds: defaultDays * 86_400)
        let days = stop.seconds(since: start) / 86_400
        var truncated = false
        if days > maxDays {
            guard truncating else {
                throw .invalidParameter("stop", value: stopRaw ?? "", accepted: "an instant at most \(Int(maxDays)) days (10 years) after start", reason: "the span is \(Int(days)) days")
            }
            stop = start.adding(seconds: maxDays * 86_400)
            truncated = true
        }
        let fresh: Freshness = startRaw == nil || startRaw == "now" || stopRaw == "now" ? .now : .fixed
        return (start, stop, fresh, truncated)
    }
}

/// What a cached sky answer depends on: the route and its parsed query.
public struct SkyKey: Hashable, Sendable {
    let route: String
    let instants: [Instant]
    let observer: Observer?
    let atmosphere: Atmosphere?
    let bodies: [BodyID]
    /// Whatever else the route's answer depends on, canonically spelled.
    let detail: String
    let csv: Bool
}
