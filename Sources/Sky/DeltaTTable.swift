import Ephemeris

/// ΔT = TT − UT1 from the IERS (`Resources/iers-delta-t.csv`, made by
/// `scripts/make-iers-table.py` from finals2000A and the leap seconds): samples every few days,
/// observed then predicted, interpolated with 4-point Lagrange polynomials.
///
/// Outside the table: before 1972 the engine reads a date as UT, so UT1 is the date given and ΔT
/// the engine's (``TimeScale/deltaT(julianYear:)``: measured by the IERS, EOP 20 C04, from 1962;
/// Stephenson, Morrison & Hohenkerk 2016 with the 2020 addendum before); from 1972 to the table's
/// start the engine's C04 values (shifted by the < 1 ms between them and this table's first
/// value), and after its end Espenak & Meeus (2006) shifted to meet the table's last value, so ΔT
/// stays continuous.
///
/// ```swift
/// let table = try DeltaTTable(csv: bytes)
/// let time = table.skyTime(instant)   // time.deltaTSeconds, time.deltaTSource
/// ```
public struct DeltaTTable: Sendable {
    /// ΔT, seconds, at MJDs (UTC).
    public let deltaT: EvenlySampled
    /// The pole's coordinates x_p, y_p (arcseconds, IERS Bulletin A) at the same MJDs; nil when
    /// the table has no such columns.
    public let xPole: EvenlySampled?
    public let yPole: EvenlySampled?
    /// Samples from this MJD on are IERS predictions, not observations.
    public let predictedFromMJD: Double

    public static let mjdOffset = 2_400_000.5

    /// Parses the CSV (`# predicted-from-mjd: N` comment, `mjd,delta_t_s` or
    /// `mjd,delta_t_s,x_p_arcsec,y_p_arcsec` header, rows at a constant step).
    public init(csv: [UInt8]) throws(DeltaTTableError) {
        var mjds: [Double] = [], values: [Double] = [], xs: [Double] = [], ys: [Double] = []
        var columns = 2
        var predicted: Double?
        var sawHeader = false
        for (k, raw) in String(decoding: csv, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let marker = "# predicted-from-mjd:"
                if line.hasPrefix(marker) {
                    predicted = Double(line.dropFirst(marker.count).drop { $0 == " " })
                }
                continue
            }
            if !sawHeader {
                switch line {
                case "mjd,delta_t_s": columns = 2
                case "mjd,delta_t_s,x_p_arcsec,y_p_arcsec": columns = 4
                default: throw .malformed(line: k + 1, detail: "expected the header mjd,delta_t_s[,x_p_arcsec,y_p_arcsec]")
                }
                sawHeader = true
                continue
            }
            let f = line.split(separator: ",")
            guard f.count == columns, let mjd = Double(f[0]), let dt = Double(f[1]), mjd.isFinite, dt.isFinite, abs(dt) < 1_000 else {
                throw .malformed(line: k + 1, detail: "expected \(columns) comma-separated finite numbers")
            }
            if columns == 4 {
                guard let x = Double(f[2]), let y = Double(f[3]), abs(x) < 2, abs(y) < 2 else {
                    throw .malformed(line: k + 1, detail: "expected the pole's x_p, y_p in arcseconds (|x| < 2)")
                }
                xs.append(x); ys.append(y)
            }
            if let last = mjds.last, mjds.count >= 2, mjd - last != mjds[1] - mjds[0] {
                throw .malformed(line: k + 1, detail: "samples must be evenly spaced")
            }
            if let last = mjds.last, mjd <= last { throw .malformed(line: k + 1, detail: "MJDs must increase") }
            mjds.append(mjd); values.append(dt)
        }
        guard mjds.count >= 4 else { throw .malformed(line: 0, detail: "at least 4 samples needed") }
        let step = mjds[1] - mjds[0]
        deltaT = EvenlySampled(first: mjds[0], step: step, values: values)
        xPole = xs.isEmpty ? nil : EvenlySampled(first: mjds[0], step: step, values: xs)
        yPole = ys.isEmpty ? nil : EvenlySampled(first: mjds[0], step: step, values: ys)
        predictedFromMJD = predicted ?? (mjds[mjds.count - 1] + step)
    }

    /// The first and last samples' MJDs.
    public var firstMJD: Double { deltaT.first }
    public var lastMJD: Double { deltaT.last }

    /// ΔT at a UTC MJD inside the table, 4-point Lagrange; nil outside it.
    public func interpolated(mjdUTC mjd: Double) -> Double? {
        deltaT.value(at: mjd)
    }

    /// The pole's x_p, y_p (arcseconds) at a UTC MJD inside the table, 4-point Lagrange; nil
    /// outside it or when the table has no polar motion.
    public func polarMotion(mjdUTC mjd: Double) -> (x: Double, y: Double)? {
        guard let x = xPole?.value(at: mjd), let y = yPole?.value(at: mjd) else { return nil }
        return (x, y)
    }

    static let leapSecondEraJD = 2_441_317.5 // 1972-01-01, the first row of TimeScale's table

    /// A date before 1972, which the engine reads as UT: UT1 is the date itself and ΔT the one
    /// the engine used (``TimeScale``); nil from 1972 on. With or without a table.
    static func readAsUT(_ t: Instant) -> SkyTime? {
        guard t.jdUTC < leapSecondEraJD else { return nil }
        let source = TimeScale.deltaTSource(julianYear: t.utc.decimalYearForDeltaT)
        return SkyTime(instant: t, deltaTSeconds: t.ttMinusUTCSeconds,
                       deltaTSource: source + ", read at the middle of the month; the date is read as UT1")
    }

    /// The instant with its ΔT and the source named.
    public func skyTime(_ t: Instant) -> SkyTime {
        if let early = Self.readAsUT(t) { return early }
        let jdUTC = t.jdUTC
        let mjd = jdUTC - Self.mjdOffset
        if let dt = interpolated(mjdUTC: mjd) {
            let source = mjd >= predictedFromMJD ? "IERS finals2000A (Bulletin A prediction)" : "IERS finals2000A (observed)"
            let pole = polarMotion(mjdUTC: mjd)
            return SkyTime(instant: t, deltaTSeconds: dt, deltaTSource: source, xPoleArcseconds: pole?.x ?? 0, yPoleArcseconds: pole?.y ?? 0)
        }
        let before = mjd < firstMJD
        let edge = before ? firstMJD : lastMJD
        let offset = deltaT.values[before ? 0 : deltaT.values.count - 1] - Self.modelDeltaT(jdUTC: edge + Self.mjdOffset)
        let source = TimeScale.deltaTSource(julianYear: Self.julianYear(jdUTC: jdUTC))
        return SkyTime(instant: t, deltaTSeconds: Self.modelDeltaT(jdUTC: jdUTC) + offset,
                       deltaTSource: source + (before ? ", joined to the IERS table at its start" : ", shifted to meet the IERS table at its end"))
    }

    static func modelDeltaT(jdUTC: Double) -> Double {
        TimeScale.deltaT(julianYear: julianYear(jdUTC: jdUTC))
    }

    static func julianYear(jdUTC: Double) -> Double { 2000 + (jdUTC - Constants.jdJ2000) / 365.25 }
}

/// Why a ΔT table could not be read.
public enum DeltaTTableError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(line: Int, detail: String)
    public var description: String {
        switch self {
        case let .malformed(line, detail): return "iers-delta-t.csv line \(line): \(detail)"
        }
    }
}
