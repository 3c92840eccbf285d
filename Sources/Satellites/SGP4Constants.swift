import Ephemeris

/// The constants SGP4 and its frames use, each with its source.
///
/// Element sets are fitted with WGS-72 gravity (Spacetrack Report #3; Vallado et al. 2006, §2):
/// propagating them with other constants moves the satellite by kilometres, so WGS-72 is not a
/// choice here. Geodetic output (the ground track) is WGS-84, as GPS and maps use.
public enum SGP4Constants {
    /// Earth's gravitational parameter, km³/s² (WGS-72; Vallado et al. 2006, getgravconst "wgs72").
    public static let muKm3PerS2 = 398_600.8
    /// Earth's equatorial radius, km (WGS-72).
    public static let earthRadiusKm = 6_378.135
    /// Second zonal harmonic (WGS-72).
    public static let j2 = 0.001_082_616
    /// Third zonal harmonic (WGS-72).
    public static let j3 = -0.000_002_538_81
    /// Fourth zonal harmonic (WGS-72).
    public static let j4 = -0.000_001_655_97
    /// J3 / J2.
    public static let j3OverJ2 = j3 / j2
    /// √(μ/R³) in 1/min: SGP4's unit of mean motion (earth radii and minutes).
    public static let xkePerMinute = 60.0 / (earthRadiusKm * earthRadiusKm * earthRadiusKm / muKm3PerS2).squareRoot()
    /// Velocity unit: earth radii per minute in km/s.
    public static let kmPerSecondPerUnit = earthRadiusKm * xkePerMinute / 60.0
    /// Minutes per day.
    public static let minutesPerDay = 1_440.0
    /// Julian date of 1949-12-31 00:00 UT, SGP4's epoch origin (Vallado et al. 2006, sgp4init "epoch").
    public static let jdSGP4Origin = 2_433_281.5

    /// WGS-84 equatorial radius, km (NIMA TR8350.2).
    public static let wgs84RadiusKm = Constants.earthEquatorialRadiusKm
    /// WGS-84 flattening (NIMA TR8350.2).
    public static let wgs84Flattening = Constants.earthFlattening
    /// Earth's rotation rate, rad/s (IERS Conventions 2010, ω for the sidereal rotation).
    public static let earthRotationRadPerSecond = 7.292_115_146_706_979e-5
    /// The Sun's mean radius, km (IAU 2015 Resolution B3 nominal solar radius).
    public static let sunRadiusKm = 695_700.0
}
