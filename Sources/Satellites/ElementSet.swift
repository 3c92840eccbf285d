/// One satellite's mean elements as a TLE or OMM record gives them, in the record's units.
///
/// The values are SGP4 mean elements (Kozai mean motion, TEME of epoch): they mean something only
/// to SGP4, never as osculating elements.
public struct ElementSet: Sendable, Hashable {
    /// The satellite's name (line 0 of a 3-line set, OMM `OBJECT_NAME`); nil in a bare 2-line set.
    public var name: String?
    /// NORAD catalogue number (Alpha-5 numbers above 99,999 decoded).
    public var noradID: Int
    /// `U`, `C` or `S`.
    public var classification: Character
    /// International designator as written (`98067A`), possibly empty.
    public var internationalDesignator: String
    /// Epoch as a UTC Julian date in two parts (whole day at 0h UTC, fraction), for precision.
    public var epochJDWhole: Double
    public var epochJDFraction: Double
    /// First time derivative of the mean motion divided by two, rev/day² (not used by SGP4).
    public var meanMotionDotRevPerDay2: Double
    /// Second time derivative of the mean motion divided by six, rev/day³ (not used by SGP4).
    public var meanMotionDDotRevPerDay3: Double
    /// B* drag term, 1/earth radii.
    public var bstarPerEarthRadius: Double
    public var inclinationDeg: Double
    public var raanDeg: Double
    public var eccentricity: Double
    public var argumentOfPerigeeDeg: Double
    public var meanAnomalyDeg: Double
    public var meanMotionRevPerDay: Double
    /// Element set number.
    public var elementSetNumber: Int
    /// Revolution number at epoch.
    public var revolutionNumber: Int

    public init(name: String?, noradID: Int, classification: Character = "U", internationalDesignator: String = "",
                epochJDWhole: Double, epochJDFraction: Double,
                meanMotionDotRevPerDay2: Double = 0, meanMotionDDotRevPerDay3: Double = 0, bstarPerEarthRadius: Double,
                inclinationDeg: Double, raanDeg: Double, eccentricity: Double, argumentOfPerigeeDeg: Double,
                meanAnomalyDeg: Double, meanMotionRevPerDay: Double, elementSetNumber: Int = 0, revolutionNumber: Int = 0) {
        self.name = name; self.noradID = noradID; self.classification = classification
        self.internationalDesignator = internationalDesignator
        self.epochJDWhole = epochJDWhole; self.epochJDFraction = epochJDFraction
        self.meanMotionDotRevPerDay2 = meanMotionDotRevPerDay2; self.meanMotionDDotRevPerDay3 = meanMotionDDotRevPerDay3
        self.bstarPerEarthRadius = bstarPerEarthRadius
        self.inclinationDeg = inclinationDeg; self.raanDeg = raanDeg; self.eccentricity = eccentricity
        self.argumentOfPerigeeDeg = argumentOfPerigeeDeg; self.meanAnomalyDeg = meanAnomalyDeg
        self.meanMotionRevPerDay = meanMotionRevPerDay
        self.elementSetNumber = elementSetNumber; self.revolutionNumber = revolutionNumber
    }

    /// The epoch as one UTC Julian date (for display; SGP4 uses the two parts).
    public var epochJDUTC: Double { epochJDWhole + epochJDFraction }

    /// The epoch from a TLE's two-digit year (57…99 → 19xx, 00…56 → 20xx, as Spacetrack Report #3
    /// and every TLE producer read it) and day of year with fraction (1.0 = 1 January 0h UTC).
    static func epoch(twoDigitYear yy: Int, dayOfYear: Double) -> (whole: Double, fraction: Double) {
        let year = yy < 57 ? 2000 + yy : 1900 + yy
        // Julian date of 1 January 0h of `year`, Gregorian (Fliegel & Van Flandern).
        let y = year + 4799
        let jan1 = Double(1 + (153 * 10 + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045) - 0.5
        let day = dayOfYear.rounded(.down)
        return (jan1 + day - 1, dayOfYear - day)
    }
}
