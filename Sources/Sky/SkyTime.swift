import Ephemeris

/// An instant with the Earth's rotation time that goes with it: TT (from the engine's
/// ``Instant``), ΔT = TT − UT1 and where that came from.
public struct SkyTime: Sendable {
    public let instant: Instant
    /// TT − UT1, seconds.
    public let deltaTSeconds: Double
    /// Which model or table gave ΔT (named in every answer).
    public let deltaTSource: String
    /// The pole's coordinates x_p, y_p (arcseconds, IERS), zero where the IERS table has none.
    public let xPoleArcseconds: Double
    public let yPoleArcseconds: Double
    /// UT1 Julian date in whole days and a fraction.
    let ut1Whole: Double
    let ut1Fraction: Double

    public init(instant: Instant, deltaTSeconds: Double, deltaTSource: String = "given",
                xPoleArcseconds: Double = 0, yPoleArcseconds: Double = 0) {
        self.instant = instant
        self.deltaTSeconds = deltaTSeconds
        self.deltaTSource = deltaTSource
        self.xPoleArcseconds = xPoleArcseconds
        self.yPoleArcseconds = yPoleArcseconds
        ut1Whole = instant.ttWhole
        ut1Fraction = instant.ttFraction - deltaTSeconds / Constants.secondsPerDay
    }

    /// The pole's x_p, y_p (arcseconds) applied, or nil where the IERS table has none (before
    /// 1973, after its predictions end, without a table).
    public var polarMotionArcseconds: (x: Double, y: Double)? {
        xPoleArcseconds != 0 || yPoleArcseconds != 0 ? (xPoleArcseconds, yPoleArcseconds) : nil
    }

    /// UT1 − UTC, seconds (for a pre-1972 instant, whose label is UT: ΔT's difference from the
    /// ΔT the label was read with).
    public var ut1MinusUTCSeconds: Double { instant.ttMinusUTCSeconds - deltaTSeconds }

    /// The UT1 Julian date.
    public var jdUT1: Double { ut1Whole + ut1Fraction }

    /// Julian centuries of TT since J2000.
    public var julianCenturiesTT: Double {
        ((instant.ttWhole - Constants.jdJ2000) + instant.ttFraction) / Constants.daysPerJulianCentury
    }
}
