import Ephemeris

/// The instants of a table: `START_TIME`…`STOP_TIME` by `STEP_SIZE`, or `TLIST`, in the table's
/// time scale; counted before anything is computed, against Horizons' line limit. Calendar
/// dates are read in the `TIME_ZONE`'s local civil time; the Julian dates kept are the scale's.
struct HorizonsTimes: Sendable {
    let scale: HorizonsTimeScale
    let zone: HorizonsTimeZone
    let count: Int
    /// The header's three lines' values.
    let startText: String
    let stopText: String
    let stepText: String
    let isList: Bool
    private let julianDates: @Sendable (Int) -> Double
    /// The first and last Julian dates (TLIST: the smallest and largest).
    let firstJD: Double
    let lastJD: Double

    /// Horizons' limit on a table's lines.
    static let maxRows = 90_024
    /// TLIST's limit.
    static let maxListed = 10_000

    func epoch(_ k: Int) -> HorizonsEpoch? {
        HorizonsTimeParser.instant(jd: julianDates(k), scale: scale).map { HorizonsEpoch($0, scale: scale) }
    }

    func jd(_ k: Int) -> Double { julianDates(k) }

    /// An epoch as its calendar date is printed: in the time zone's civil time.
    func civil(_ e: HorizonsEpoch) -> HorizonsEpoch { e.shifted(days: zone.days) }

    init(_ s: HorizonsSettings, now: Double) throws(HorizonsFailure) {
        scale = s.timeScale
        zone = s.timeZone
        let greg = s.gregorianOnly, zoneDays = s.timeZone.days
        func read(_ text: String) throws(HorizonsFailure) -> Double {
            guard let (jd, explicit, calendar) = HorizonsTimeParser.parse(text, gregorianOnly: greg) else { throw HorizonsFailure.cannotInterpretDate }
            // A calendar date without a scale of its own is local civil time.
            if explicit == nil, calendar { return jd - zoneDays }
            guard let scale = explicit, scale != s.timeScale else { return jd }
            // A date in another scale than the table's: moved into the table's.
            guard let t = HorizonsTimeParser.instant(jd: jd, scale: scale) else { throw HorizonsFailure.cannotInterpretDate }
            let e = HorizonsEpoch(t, scale: s.timeScale)
            return e.whole + e.fraction
        }
        func checked(_ jd: Double) throws(HorizonsFailure) -> Double {
            guard HorizonsTimeParser.instant(jd: jd, scale: s.timeScale) != nil else {
                throw HorizonsFailure(" No ephemeris: \(jd) is outside the years \(TimeScale.yearRange.lowerBound) to \(TimeScale.yearRange.upperBound) this server's theories cover")
            }
            return jd
        }
        if let list = s.tlist {
            guard list.count <= Self.maxListed else { throw HorizonsFailure(" TLIST has \(list.count) times; at most \(Self.maxListed) are taken") }
            var jds: [Double] = []
            jds.reserveCapacity(list.count)
            for item in list {
                switch s.tlistType {
                case "MJD":
                    guard let v = HorizonsTimeParser.number(Substring(item)) else { throw HorizonsFailure.cannotInterpretDate }
                    jds.append(try checked(v + 2_400_000.5))
                case "CAL":
                    jds.append(try checked(try read(item)))
                default:
                    guard let v = HorizonsTimeParser.number(Substring(item)) else { throw HorizonsFailure.cannotInterpretDate }
                    jds.append(try checked(v))
                }
            }
            let frozen = jds
            julianDates = { frozen[$0] }
            count = jds.count
            isList = true
            firstJD = jds.min()!
            lastJD = jds.max()!
            // Horizons' header for a list: the first time, half a second past the last.
            startText = Self.headerDate(firstJD, scale: scale, zone: zone, greg: greg)
            stopText = Self.headerDate(lastJD + 0.5 / 86_400, scale: scale, zone: zone, greg: greg)
            stepText = "0 steps"
            return
        }
        isList = false
        let start: Double
        if let text = s.start { start = try checked(try read(text)) } else {
            // No START_TIME: the current (local) day's 00:00, as Horizons starts a table by default.
            let t = (try? TimeScale.utc(unixSeconds: now)) ?? TimeScale.instant(tdbSecondsPastJ2000: 0)
            let e = HorizonsEpoch(t, scale: scale).shifted(days: zoneDays)
            start = e.whole - zoneDays
        }
        let stop = try s.stop.map { t throws(HorizonsFailure) in try checked(try read(t)) } ?? start + 1
        guard stop >= start else { throw HorizonsFailure.stopBeforeStart }
        let rawStep = s.step ?? "60 m"
        guard let step = HorizonsStep.parse(rawStep) else { throw HorizonsFailure.badStep(rawStep) }
        firstJD = start
        let span = stop - start
        switch step {
        case let .seconds(secs):
            let days = secs / 86_400
            // A Julian date near 2.46e6 holds 4.7e-10 d, and a zone's shift rounds both ends:
            // the last step counts if it falls within 1e-8 d (0.9 ms; a thousandth of a shorter step) of the stop.
            let n = Int(((span + min(1e-8, days / 1_000)) / days).rounded(.down))
            guard n < Self.maxRows else { throw HorizonsFailure.tooLong(n + 1, limit: Self.maxRows) }
            count = n + 1
            julianDates = { start + Double($0) * days }
        case let .intervals(n):
            guard n < Self.maxRows else { throw HorizonsFailure.tooLong(n + 1, limit: Self.maxRows) }
            count = span > 0 ? n + 1 : 1
            let days = span / Double(max(n, 1))
            julianDates = { start + Double($0) * days }
        case let .months(m), let .years(m):
            // Months are counted on the local calendar.
            let months = step == .years(m) ? 12 * m : m
            let local = start + zoneDays
            let midnight = (local - 0.5).rounded(.down) + 0.5
            let timeOfDay = local - midnight
            let (y0, m0, d0) = HorizonsCalendar.date(midnightJD: midnight, gregorianOnly: greg)
            let dates: @Sendable (Int) -> Double = { k in
                let total = (m0 - 1) + k * months
                let y = y0 + Int((Double(total) / 12).rounded(.down)), mm = ((total % 12) + 12) % 12 + 1
                let d = min(d0, HorizonsCalendar.daysInMonth(year: y, month: mm, gregorianOnly: greg))
                return HorizonsCalendar.midnightJD(year: y, month: mm, day: d, gregorianOnly: greg) + timeOfDay - zoneDays
            }
            // Counted by stepping: at most Horizons' limit of steps.
            var n = 0
            while n < Self.maxRows, dates(n + 1) <= stop + 1e-8 { n += 1 }
            guard n < Self.maxRows else { throw HorizonsFailure.tooLong(n + 1, limit: Self.maxRows) }
            count = n + 1
            julianDates = dates
        }
        lastJD = julianDates(count - 1)
        startText = Self.headerDate(start, scale: scale, zone: zone, greg: greg)
        stopText = Self.headerDate(stop, scale: scale, zone: zone, greg: greg)
        stepText = step.description(span: span * 86_400)
    }

    /// `A.D. 2022-Jun-10 00:00:00.0000 TDB` (UT lines padded as Horizons pads them); in a time
    /// zone the local date and its label, `A.D. 1904-Dec-09 00:00:00.0000 UT-01:00`.
    static func headerDate(_ jd: Double, scale: HorizonsTimeScale, zone: HorizonsTimeZone, greg: Bool) -> String {
        let local = jd + zone.days
        let whole = (local - 0.5).rounded(.down) + 0.5
        let e = HorizonsEpochValue(whole: whole, fraction: local - whole)
        let date = HorizonsCalendar.format(e.epoch, secondDecimals: 4, era: .words, gregorianOnly: greg)
        if zone != .ut { return date + " " + zone.label(scale) }
        switch scale {
        case .ut: return date + " UT      "
        case .tt: return date + " TT"
        case .tdb: return date + " TDB"
        }
    }
}

/// A Julian date split for printing without an instant behind it (header lines).
struct HorizonsEpochValue {
    let whole: Double
    let fraction: Double
    var epoch: HorizonsEpoch { HorizonsEpoch(whole: whole, fraction: fraction) }
}

extension HorizonsEpoch {
    /// A date to print, with the J2000 instant standing in (never evaluated).
    init(whole: Double, fraction: Double) {
        self.instant = TimeScale.instant(tdbSecondsPastJ2000: 0)
        self.whole = whole
        self.fraction = fraction
    }
}
