/// Every physical and conventional constant the engine uses, each with its source.
public enum Constants {
    public static let auKm = 149_597_870.7 // IAU 2012 Resolution B2 (exact)
    public static let secondsPerDay = 86_400.0 // SI day
    public static let daysPerJulianCentury = 36_525.0 // IAU Julian century
    public static let jdJ2000 = 2_451_545.0 // J2000.0 = 2000-01-01T12:00:00 TT (IAU 1976)
    public static let mjdJ2000 = 51_544.5 // J2000.0 as a Modified Julian Date, JD − 2400000.5
    public static let jdB1950 = 2_433_282.4235 // B1950.0 (Lieske 1979, Meeus ch. 21)
    public static let jdUnixEpoch = 2_440_587.5 // 1970-01-01T00:00:00 UTC
    public static let ttMinusTAISeconds = 32.184 // IAU 1991 Resolution A4 (TT = TAI + 32.184 s)
    /// Mean obliquity of the ecliptic at J2000.0, the angle that defines the ecliptic J2000
    /// frame of every heliocentric answer (IAU 1976 value, Lieske et al. 1977).
    public static let obliquityJ2000Arcseconds = 84_381.448
    public static let obliquityJ2000Radians = obliquityJ2000Arcseconds * Angle.radiansPerArcsecond
    /// J2000 → FK4/B1950 as SPICE rotates it: B1950 = [z1]₃ [y]₂ [z2]₃ J2000, frame (passive)
    /// rotations in arcseconds (NAIF SPICELIB `chgirf.f`, after Standish 1982, no E-terms).
    public static let fk4EulerZ1Arcseconds = 1_152.842_485_967_24 // NAIF chgirf.f
    public static let fk4EulerYArcseconds = -1_002.261_084_391_17 // NAIF chgirf.f
    public static let fk4EulerZ2Arcseconds = 1_153.040_662_003_30 // NAIF chgirf.f
    /// Obliquity of the B1950 ecliptic on the FK4 equator, 23°26′44.836″ (NAIF `chgirf.f`, ECLIPB1950).
    public static let obliquityB1950Arcseconds = 84_404.836
    /// Earth/Moon mass ratio used to split the Earth–Moon barycentre (JPL DE405 header, EMRAT).
    public static let earthMoonMassRatio = 81.300_569_07
    public static let earthEquatorialRadiusKm = 6_378.137 // IERS 2010 / WGS-84
    /// The Earth ellipsoid's inverse flattening and flattening (WGS 84, NIMA TR8350.2): one
    /// value for the observer's sky, the satellites' ground tracks and the missions' pads and
    /// splashdowns.
    public static let earthInverseFlattening = 298.257_223_563
    public static let earthFlattening = 1 / earthInverseFlattening
    /// GM of the Moon, km³/s² (JPL DE440 header; Park et al. 2021, AJ 161:105).
    public static let moonGMKm3PerS2 = 4_902.800_118
    public static let speedOfLightKmPerSecond = 299_792.458 // SI definition
    public static let standardGravityMS2 = 9.806_65 // one g, m/s² (3rd CGPM 1901, exact)
}
