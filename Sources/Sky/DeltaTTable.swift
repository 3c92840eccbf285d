import Ephemeris

/// ΔT = TT − UT1 from the IERS (`Resources/iers-delta-t.csv`, made by
/// `scripts/make-iers-table.py` from finals2000A and the leap seconds): samples every few days,
/// observed then predicted, interpolated with 4-point Lagrange polynomials.
///
/// Outside the table: before 1972 the engine reads a date as UT, so UT1 is the date given and ΔT
/// the engine's model (Stephenson, Morrison & Hohenkerk 2016 with the 2020 addendum, whose splines
/// the generator joins to this table's first value); from 1972 to the table's start that model
/// (continuous with the table by construction), and after its end Espenak & Meeus (2006) shifted
/// to meet the table's last value, so ΔT stays continuous.
///
/// ```swift
/// let table = try DeltaTTable(csv: bytes)
/// let time = table.skyTime(instant)   // time.deltaTSeconds, time.deltaTSource
/// ```
public struct DeltaTTable: Sendable {
    /// First sample's MJD (UTC) and the spacing, days.
    public let firstMJD: Double
    public let stepDays: Double
    public let deltaTSeconds: [Double]
    /// The pole's coordinates x_p, y_p (arcseconds, IERS Bulletin A) at the same samples; empty
    /// when the table has no such columns.
    public let xPoleArcseconds: [Double]
    public let yPoleArcseconds: [Double]
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
        firstMJD = mjds[0]
        stepDays = mjds[1] - mjds[0]
        deltaTSeconds = values
        xPoleArcseconds = xs
        yPoleArcseconds = ys
        predictedFromMJD = predicted ?? (mjds[mjds.count - 1] + stepDays)
    }

    /// The last sample's MJD.
    public var lastMJD: Double { firstMJD + Double(deltaTSeconds.count - 1) * stepDays }

    /// ΔT at a UTC MJD inside the table, 4-point Lagrange; nil outside it.
    public func interpolated(mjdUTC mjd: Double) -> Double? {
        interpolated(deltaTSeconds, mjdUTC: mjd)
    }

    /// The pole's x_p, y_p (arcseconds) at a UTC MJD inside the table, 4-point Lagrange; nil
    /// outside it or when the table has no polar motion.
    public func polarMotion(mjdUTC mjd: Double) -> (x: Double, y: Double)? {
        guard !xPoleArcseconds.isEmpty, let x = interpolated(xPoleArcseconds, mjdUTC: mjd),
              let y = interpolated(yPoleArcseconds, mjdUTC: mjd) else { return nil }
        return (x, y)
    }

    func interpolated(_ y: [Double], mjdUTC mjd: Double) -> Double? {
        guard mjd >= firstMJD, mjd <= lastMJD else { return nil }
        let x = (mjd - firstMJD) / stepDays
        let n = deltaTSeconds.count
        let i = min(max(Int(x) - 1, 0), n - 4)
        let u = x - Double(i)
        // Lagrange weights at nodes 0, 1, 2, 3 for abscissa u.
        let w0 = -(u - 1) * (u - 2) * (u - 3) / 6
        let w1 = u * (u - 2) * (u - 3) / 2
        let w2 = -u * (u - 1) * (u - 3) / 2
        let w3 = u * (u - 1) * (u - 2) / 6
        return w0 * y[i] + w1 * y[i + 1] + w2 * y[i + 2] + w3 * y[i + 3]
    }

    static let leapSecondEraJD = 2_441_317.5 // 1972-01-01, the first row of TimeScale's table

    /// A date before 1972, which the engine reads as UT: UT1 is the date itself and ΔT the one
    /// the engine used (``TimeScale``); nil from 1972 on. With or without a table.
    static func readAsUT(_ t: Instant) -> SkyTime? {
        guard t.jdUTC < leapSecondEraJD else { return nil }
        return SkyTime(instant: t, deltaTSeconds: t.ttMinusUTCSeconds, deltaTSource: historicalSource + "; the date is read as UT1")
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
        let offset = deltaTSeconds[before ? 0 : deltaTSeconds.count - 1] - Self.modelDeltaT(jdUTC: edge + Self.mjdOffset)
        return SkyTime(instant: t, deltaTSeconds: Self.modelDeltaT(jdUTC: jdUTC) + offset,
                       deltaTSource: before ? Self.historicalSource + ", joined to the IERS table at its start"
                           : "Espenak & Meeus (2006) polynomial, shifted to meet the IERS table at its end")
    }

    /// The engine's ΔT before the IERS era, as named in answers.
    static let historicalSource = "Stephenson, Morrison & Hohenkerk (2016) splines with the 2020 addendum"

    static func modelDeltaT(jdUTC: Double) -> Double {
        TimeScale.deltaT(julianYear: 2000 + (jdUTC - Constants.jdJ2000) / 365.25)
    }
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
