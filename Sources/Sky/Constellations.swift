import Glibc
import Ephemeris

/// The constellation a direction lies in: the IAU's boundaries (Delporte 1930), drawn along
/// lines of right ascension and declination of the equinox of B1875.0, as tabulated by Roman
/// (1987, *PASP* 99, 695; CDS catalogue VI/42): rows of a lower and an upper right ascension
/// (hours) and a lower declination (degrees), ordered from the north pole south; a direction,
/// precessed to B1875.0, belongs to the first row whose declination limit is at or below it and
/// whose right-ascension band holds it.
///
/// ```swift
/// let c = try Constellations(table: bytes)      // Resources/constellations/roman1987-boundaries.dat
/// c.abbreviation(icrf: direction)               // "Gem"
/// ```
public struct Constellations: Sendable {
    struct Row: Sendable {
        let raLowHours: Double
        let raHighHours: Double
        let decLowDeg: Double
        let abbreviation: String
    }

    let rows: [Row]

    /// Reads the table: one row per line, `ra_low ra_high dec_low abbreviation`, lines starting
    /// with `#` skipped.
    public init(table bytes: [UInt8]) throws(ConstellationTableError) {
        var rows: [Row] = []
        var lineNumber = 0
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.trimmingCharacters(in: " \t\r")
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 4, let lo = Double(fields[0]), let hi = Double(fields[1]), let dec = Double(fields[2]),
                  lo >= 0, hi <= 24, lo < hi, abs(dec) <= 90, fields[3].count == 3 else {
                throw ConstellationTableError(line: lineNumber, text: String(line.prefix(80)))
            }
            rows.append(Row(raLowHours: lo, raHighHours: hi, decLowDeg: dec, abbreviation: String(fields[3])))
        }
        guard rows.count > 300, rows.last?.decLowDeg == -90 else { throw ConstellationTableError(line: lineNumber, text: "the table does not reach the south pole") }
        self.rows = rows
    }

    /// B1875.0 as a TT Julian date (Besselian epoch 1875.0: JD 2415020.31352 + (1875 − 1900) × 365.242198781).
    public static let b1875JDTT = 2_405_889.258_550_475

    /// ICRF → mean equator and equinox of B1875.0: frame bias and the IAU 2006 precession
    /// (Capitaine et al. 2003; the same P03 angles as ``EarthOrientation``) back to 1875.
    public static let icrfToB1875: Matrix3 = {
        let t = (b1875JDTT - Constants.jdJ2000) / Constants.daysPerJulianCentury
        return EarthOrientation.precession(julianCenturiesTT: t) * EarthOrientation.frameBias
    }()

    /// The three-letter IAU abbreviation of the constellation holding an ICRF direction.
    public func abbreviation(icrf direction: Vector3) -> String {
        let d = Self.icrfToB1875 * direction
        let raHours = Angle.normalizedDegrees(atan2(d.y, d.x) * Angle.degreesPerRadian) / 15
        let dec = atan2(d.z, (d.x * d.x + d.y * d.y).squareRoot()) * Angle.degreesPerRadian
        for r in rows where r.decLowDeg <= dec && r.raLowHours <= raHours && raHours < r.raHighHours {
            return r.abbreviation
        }
        return rows[rows.count - 1].abbreviation
    }
}

public struct ConstellationTableError: Error, Sendable, CustomStringConvertible {
    public let line: Int
    public let text: String
    public var description: String { "constellation boundaries, line \(line): cannot read \"\(text)\" as ra_low ra_high dec_low abbreviation" }
}

extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
