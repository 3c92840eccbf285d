import Ephemeris

/// The constants of the observer's sky, each with its source (the engine's own are in
/// `Ephemeris.Constants`).
public enum SkyConstants {
    public static let wgs84EquatorialRadiusKm = Constants.earthEquatorialRadiusKm // WGS 84 (NIMA TR8350.2)
    public static let wgs84Flattening = Constants.earthFlattening // WGS 84 (NIMA TR8350.2)
    /// Earth rotation angle at J2000 UT1 and its rate, turns (IERS Conventions 2010, eq. 5.15).
    public static let eraAtJ2000Turns = 0.779_057_273_264_0
    public static let eraTurnsPerUT1Day = 1.002_737_811_911_354_48
    /// The Earth's angular velocity, rad/s of UT1 (IERS Conventions 2010, table 1.1: 7.292115e-5).
    public static let earthRotationRadiansPerSecond = 7.292_115_146_706_979e-5
    /// Obliquity of the ecliptic at J2000 in the IAU 2006 precession, arcseconds (Capitaine et al. 2003).
    public static let obliquity2006J2000Arcseconds = 84_381.406
    /// 2GM☉/(c² · 1 AU): the light deflection scale at 1 AU (IAU 2009 GM☉; SOFA's value).
    public static let sunDeflectionAU = 1.974_125_743_36e-8
    /// Light travel time across 1 AU, seconds (IAU 2012 au and the SI c).
    public static let lightTimePerAUSeconds = Constants.auKm / Constants.speedOfLightKmPerSecond
    /// The speed of light in AU per day.
    public static let speedOfLightAUPerDay = Constants.speedOfLightKmPerSecond * Constants.secondsPerDay / Constants.auKm
    /// Standard refraction at the horizon used for rising and setting, degrees (USNO; 34′).
    public static let horizonRefractionDeg = 34.0 / 60
    /// Radii for semidiameters: the Sun's nominal photosphere (IAU 2015 Resolution B3) and the
    /// Moon's mean radius (IAU WGCCRE 2015), km.
    public static let sunRadiusKm = 695_700.0
    public static let moonRadiusKm = 1_737.4
    /// Standard atmosphere for refraction when the caller gives none: 10 °C, 1010 hPa
    /// (Skyfield's 'standard'; Bennett 1982 is fitted at these).
    public static let standardTemperatureC = 10.0
    public static let standardPressureHPa = 1_010.0
    /// Twilight: the Sun's centre (geometric) at −6°, −12°, −18° (USNO).
    public static let civilTwilightDeg = -6.0
    public static let nauticalTwilightDeg = -12.0
    public static let astronomicalTwilightDeg = -18.0
    /// Mean synodic month, days (Chapront-Touzé & Chapront 1988, at J2000), for the Moon's age.
    public static let synodicMonthDays = 29.530_588_853
}
