import Glibc
import Ephemeris

/// The conventions an eclipse answer is computed with, each named in the answer: the Moon's
/// radius (NASA's two values or the IAU's one), the Earth's shadow (Danjon's or Chauvenet's
/// enlargement) and ΔT (the server's table, or a value given to reproduce another source).
///
/// ```swift
/// let nasa = EclipseConventions()                                    // as Espenak's tables
/// let fixed = EclipseConventions(deltaTSeconds: 69.2, lunarRadius: .iau) // one k, ΔT as given
/// ```
public struct EclipseConventions: Sendable, Hashable {
    public enum LunarRadius: String, Sendable, Hashable, CaseIterable {
        /// k = 0.2725076 for the partial (penumbral) contacts, 0.272281 for the central ones
        /// (Espenak & Meeus: the mean radius of the valleys the last light shines through).
        case nasa
        /// k = 0.2725076 for every contact (the IAU's mean radius, the limb as a circle).
        case iau
    }

    public enum ShadowEnlargement: String, Sendable, Hashable, CaseIterable {
        /// Both shadows enlarged by 1/50 (Chauvenet 1891; the Explanatory Supplement of 1961):
        /// 1.02 (0.99834 π☾ ± s☉ + π☉). NASA's catalogue of 1901–2100 (Espenak) is computed so:
        /// its magnitudes agree with these to 0.001, and are 0.026 (penumbral) and 0.005
        /// (umbral) above Danjon's.
        case chauvenet
        /// The Earth's radius enlarged by 1/85, less 1/594 for its flattening (Danjon 1951), as
        /// NASA's Five Millennium Canon of Lunar Eclipses (2009): 1.01 π☾ ± s☉ + π☉.
        case danjon
    }

    /// TT − UT1 to use instead of the server's table (seconds), or nil.
    public var deltaTSeconds: Double?
    public var lunarRadius: LunarRadius
    public var shadow: ShadowEnlargement

    public init(deltaTSeconds: Double? = nil, lunarRadius: LunarRadius = .nasa, shadow: ShadowEnlargement = .chauvenet) {
        self.deltaTSeconds = deltaTSeconds
        self.lunarRadius = lunarRadius
        self.shadow = shadow
    }

    /// k for the partial (penumbral) contacts and for the central (umbral) ones, Earth radii.
    var k: (penumbral: Double, umbral: Double) {
        switch lunarRadius {
        case .nasa: return (EclipseConstants.kLimb, EclipseConstants.kUmbral)
        case .iau: return (EclipseConstants.kLimb, EclipseConstants.kLimb)
        }
    }

    /// The sentence an answer carries about how it was computed.
    public var statement: String {
        let moon = lunarRadius == .nasa
            ? "Moon's limb a circle: k = 0.2725076 (IAU) for partial contacts, 0.272281 (NASA) for central contacts"
            : "Moon's limb a circle: k = 0.2725076 (IAU) for every contact"
        let earth = shadow == .danjon
            ? "Earth's shadow enlarged by Danjon's rule (1.01 × the Moon's parallax)"
            : "Earth's shadow enlarged by 2% (Chauvenet)"
        return "\(moon); Sun's semidiameter 959.63\" at 1 au; \(earth); Earth WGS 84; DE440 geometry with light time"
    }
}

/// The eclipse constants, each with its source.
public enum EclipseConstants {
    /// The Moon's mean radius over the Earth's equatorial radius (IAU 1982; Espenak & Meeus's
    /// value for partial contacts and lunar eclipses).
    public static let kLimb = 0.272_507_6
    /// The Moon's radius for umbral (central) contacts (Espenak & Meeus, Five Millennium Canon
    /// of Solar Eclipses, 2006).
    public static let kUmbral = 0.272_281
    /// The Sun's semidiameter at 1 au, arcseconds (Auwers; the Explanatory Supplement and NASA).
    public static let sunSemidiameterAt1AUArcseconds = 959.63
    /// The Sun's radius in Earth equatorial radii, from the semidiameter above.
    static let sunRadiusEarthRadii = sin(sunSemidiameterAt1AUArcseconds * Angle.radiansPerArcsecond) * Constants.auKm / SkyConstants.wgs84EquatorialRadiusKm
    /// Mean synodic month (Meeus, Astronomical Algorithms 2nd ed. eq. 49.1), days.
    static let synodicMonthDays = 29.530_588_861
    /// JDE of the mean New Moon of 2000 January 6 (Meeus eq. 49.1: lunation 0).
    static let meanNewMoonJDE = 2_451_550.097_66
}
