import Ephemeris
import HTTPCore
import Sky

/// The parameters the eclipse and transit routes share, validated: the span, the conventions
/// (`deltaT`, `lunarRadius`, `shadow`) and the kind.
struct EclipseQuery: Sendable {
    static let conventionParameters: Set<String> = ["deltaT", "lunarRadius", "shadow"]
    static let deltaTRange = -1_000.0...100_000.0
    static let maxSpanDays = SkyEngine.maxEclipseSpanDays

    /// `deltaT` (seconds: TT − UT1 to use instead of the server's table), `lunarRadius`
    /// (`nasa`: k = 0.2725076 partial, 0.272281 central; `iau`: 0.2725076 throughout) and
    /// `shadow` (`chauvenet`, NASA's catalogue; `danjon`).
    static func conventions(_ q: QueryParameters) throws(ProblemDetails) -> EclipseConventions {
        let dt = try q.double("deltaT", in: deltaTRange)
        let radius = try q.oneOf("lunarRadius", default: EclipseConventions.LunarRadius.nasa)
        let shadow = try q.oneOf("shadow", default: EclipseConventions.ShadowEnlargement.chauvenet)
        return EclipseConventions(deltaTSeconds: dt, lunarRadius: radius, shadow: shadow)
    }

    /// `start` (default now) and `stop` (default `start` + `defaultYears`), at most 1,000 years
    /// apart; whether `stop` was given (without it the list is cut at `limit`).
    static func span(_ q: QueryParameters, clock: () -> Double, defaultYears: Double) throws(ProblemDetails)
        -> (start: Instant, stop: Instant, freshness: Freshness, stopGiven: Bool) {
        let startRaw = try q.string("start"), stopRaw = try q.string("stop")
        let start = try QueryParsing.instant(startRaw, parameter: "start", now: clock)
        let stop = try stopRaw.map { s throws(ProblemDetails) in try QueryParsing.instant(s, parameter: "stop", now: clock) }
            ?? start.adding(seconds: defaultYears * 365.25 * 86_400)
        let days = stop.seconds(since: start) / 86_400
        guard days <= maxSpanDays else {
            throw .invalidParameter("stop", value: stopRaw ?? "", accepted: "an instant at most 1000 years (\(Int(maxSpanDays)) days) after start", reason: "the span is \(Int(days)) days")
        }
        let fresh: Freshness = startRaw == nil || startRaw == "now" || stopRaw == "now" ? .now : .fixed
        return (start, stop, fresh, stopRaw != nil)
    }

    static let idAccepted = "an eclipse id: the UTC date of greatest eclipse and the kind, YYYY-MM-DD-solar or YYYY-MM-DD-lunar (e.g. 2027-08-02-solar)"

    /// The canonical spelling of the conventions, for cache keys.
    static func key(_ c: EclipseConventions) -> String {
        "\(c.deltaTSeconds.map { "\($0)" } ?? "table");\(c.lunarRadius.rawValue);\(c.shadow.rawValue)"
    }
}
