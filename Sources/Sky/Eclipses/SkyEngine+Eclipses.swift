import Glibc
import Ephemeris

extension SkyEngine {
    /// The longest span one eclipse search may cover, days (1,000 years).
    public static let maxEclipseSpanDays = 365_250.0

    /// A New (`phase` 0) or Full (0.5) Moon that may bring an eclipse: the lunation and the
    /// instant (TDB seconds past J2000) of the Moon's conjunction with (opposition to) the Sun
    /// in ecliptic longitude.
    struct Syzygy { let lunation: Int; let seconds: Double }

    /// The Moon's argument of latitude at the mean syzygy decides whether an eclipse can happen
    /// (Meeus ch. 54: none where |sin F| > 0.36); 0.42 leaves a margin for the mean elements.
    static let eclipseLimitSinF = 0.42

    /// The New or Full Moons between `a` and `b` (TDB seconds) near enough a node for an eclipse,
    /// one lunation at a time. Not interruptible: a search is bounded by its span (at most 1,000
    /// years, about 2 s of CPU, most of it outside DE440's span), and the API runs spans over
    /// 200 years in the heavy lane, which never takes every worker. The mean phase and argument of latitude (Meeus eq. 49.1, 49.4)
    /// pick the lunations; three Newton steps on the DE440 longitudes find the syzygy.
    func eclipseSeasons(from a: Double, to b: Double, phase: Double, _ body: (Syzygy) -> Void) {
        let days = Constants.secondsPerDay
        let jdA = Constants.jdJ2000 + a / days, jdB = Constants.jdJ2000 + b / days
        let first = Int(((jdA - EclipseConstants.meanNewMoonJDE) / EclipseConstants.synodicMonthDays - phase).rounded(.down)) - 1
        let last = Int(((jdB - EclipseConstants.meanNewMoonJDE) / EclipseConstants.synodicMonthDays - phase).rounded(.up)) + 1
        guard first <= last else { return }
        for lunation in first...last {
            let k = Double(lunation) + phase
            let t = k / 1_236.85
            let jde = EclipseConstants.meanNewMoonJDE + EclipseConstants.synodicMonthDays * k + t * t * (0.000_154_37 + t * (-0.000_000_150 + t * 0.000_000_000_73))
            let f = (160.710_8 + 390.670_502_84 * k + t * t * (-0.001_611_8 + t * (-0.000_002_27 + t * 0.000_000_011))) * Angle.radiansPerDegree
            guard abs(sin(f)) <= Self.eclipseLimitSinF else { continue }
            let s = syzygy(near: (jde - Constants.jdJ2000) * days, phase: phase)
            guard s >= a - days, s <= b + days else { continue }
            body(Syzygy(lunation: lunation, seconds: s))
        }
    }

    /// Where the Moon's geometric ecliptic longitude minus the Sun's is `phase` × 360° nearest `s`.
    func syzygy(near s0: Double, phase: Double) -> Double {
        func elongation(_ s: Double) -> Double {
            let m = moonGeocentric(tdbSeconds: s).positionKm, e = earthHeliocentric(tdbSeconds: s).positionAU
            let d = atan2(m.y, m.x) - atan2(-e.y, -e.x) - phase * 2 * Double.pi
            return Angle.normalizedSignedRadians(d)
        }
        let rate = 2 * Double.pi / (EclipseConstants.synodicMonthDays * Constants.secondsPerDay)
        var s = s0
        for _ in 0..<3 { s -= elongation(s) / rate }
        return s
    }

    /// Every solar eclipse whose greatest eclipse falls between `start` and `stop`, in order.
    public func solarEclipses(start: Instant, stop: Instant, conventions: EclipseConventions = EclipseConventions()) -> [SolarEclipse] {
        eclipses(start: start, stop: stop, phase: 0, greatest: \.greatest) { track, lunation in
            BesselianElements(track, conventions: conventions).eclipse(lunation: lunation, conventions: conventions)
        } track: { SyzygyTrack(engine: self, middle: $0, conventions: conventions) }
    }

    /// Every lunar eclipse whose greatest eclipse falls between `start` and `stop`, in order.
    public func lunarEclipses(start: Instant, stop: Instant, conventions: EclipseConventions = EclipseConventions()) -> [LunarEclipse] {
        eclipses(start: start, stop: stop, phase: 0.5, greatest: \.greatest) { track, lunation in
            LunarShadow(track, conventions: conventions).eclipse(lunation: lunation, conventions: conventions)
        } track: { SyzygyTrack(engine: self, middle: $0, conventions: conventions) }
    }

    /// The eclipses `make` finds around the New (`phase` 0) or Full (0.5) Moons of the span whose
    /// greatest eclipse is in it.
    func eclipses<E>(start: Instant, stop: Instant, phase: Double, greatest: (E) -> Instant,
                     make: (SyzygyTrack, Int) -> E?, track: (Double) -> SyzygyTrack) -> [E] {
        let a = Self.tdbSeconds(start), b = Self.tdbSeconds(stop)
        var out: [E] = []
        eclipseSeasons(from: a, to: b, phase: phase) { syzygy in
            guard let e = make(track(syzygy.seconds), syzygy.lunation) else { return }
            if (a...b).contains(Self.tdbSeconds(greatest(e))) { out.append(e) }
        }
        return out
    }

    /// The solar eclipse named `id` (`2027-08-02-solar`), or nil.
    public func solarEclipse(id: String, conventions: EclipseConventions = EclipseConventions()) -> SolarEclipse? {
        Self.aroundDay(of: id, kind: "solar") { solarEclipses(start: $0, stop: $1, conventions: conventions) }?.first { $0.id == id }
    }

    /// The lunar eclipse named `id` (`2025-09-07-lunar`), or nil.
    public func lunarEclipse(id: String, conventions: EclipseConventions = EclipseConventions()) -> LunarEclipse? {
        Self.aroundDay(of: id, kind: "lunar") { lunarEclipses(start: $0, stop: $1, conventions: conventions) }?.first { $0.id == id }
    }

    /// `search` over the day `id` names and a day either side, or nil when `id` is not of `kind`.
    static func aroundDay<T>(of id: String, kind: String, _ search: (Instant, Instant) -> [T]) -> [T]? {
        guard let (day, k) = parseEclipseID(id), k == kind else { return nil }
        return search(day.addingTT(seconds: -86_400), day.addingTT(seconds: 2 * 86_400))
    }

    /// The UTC midnight and kind of an eclipse id, or nil when it is not one's form.
    public static func parseEclipseID(_ id: String) -> (day: Instant, kind: String)? {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        // A year before 1 AD is written with its sign: -0100-05-06-solar.
        let negative = id.hasPrefix("-")
        let fields = negative ? Array(parts.dropFirst()) : Array(parts)
        guard fields.count == 4, fields[0].count >= 4, fields[1].count == 2, fields[2].count == 2,
              let y = Int(fields[0]), let m = Int(fields[1]), let d = Int(fields[2]),
              fields[3] == "solar" || fields[3] == "lunar",
              let day = try? TimeScale.utc(year: negative ? -y : y, month: m, day: d),
              day.iso8601.hasPrefix(id.dropLast(fields[3].count + 1)) else { return nil }
        return (day, String(fields[3]))
    }

    /// `2027-08-02-solar`: the UTC date of `t` and the kind.
    static func eclipseID(_ t: Instant, kind: String) -> String {
        let iso = t.iso8601
        let date = iso.firstIndex(of: "T").map { iso[..<$0] } ?? Substring(iso)
        return "\(date)-\(kind)"
    }

    /// The saros series of an eclipse at lunation `k`: 223 lunations apart in one series, and
    /// 358 (an inex) apart in neighbouring ones; counted from an eclipse of known series
    /// (solar: 2017-08-21, lunation 218, saros 145; lunar: 2001-01-09, lunation 12, saros 134).
    static func saros(lunation k: Int, solar: Bool) -> Int {
        let (k0, s0) = solar ? (218, 145) : (12, 134)
        // Δk = 223 a + 358 n  ⇒  n ≡ Δk · 358⁻¹ (mod 223); 358 ≡ 135 and 135⁻¹ ≡ 38 (mod 223).
        var n = ((k - k0) * 38) % 223
        if n < 0 { n += 223 }
        if n > 111 { n -= 223 }
        return s0 + n
    }
}
