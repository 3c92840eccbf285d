import Ephemeris

/// The small-body propagator's constants, each with its source.
public enum SmallBodyConstants {
    /// Speed of light, km/s (SI definition), for the Sun's post-Newtonian term.
    public static let speedOfLightKmS = Constants.speedOfLightKmPerSecond

    /// The perturbing asteroids of JPL's SB441-N16 model (Horizons' small-body integrations
    /// since April 2021): number and GM in km³/s², from JPL's `gm_Horizons.pck` (version 4.0,
    /// "SB441-N16 small-body integration perturber file (DE441 masses)"). The propagator uses
    /// those of them that are loaded, each integrated from its own elements.
    public static let perturbingAsteroids: [(number: Int, gmKm3S2: Double)] = [
        (1, 62.628_888_644_409_933), // Ceres
        (2, 13.665_878_145_967_422), // Pallas
        (3, 1.920_570_700_202_588_9), // Juno
        (4, 17.288_232_879_171_513), // Vesta
        (7, 1.139_872_323_218_410_7), // Iris
        (10, 5.625_147_645_385_228_9), // Hygiea
        (15, 2.023_020_987_109_828_4), // Eunomia
        (16, 1.589_658_244_170_942_4), // Psyche
        (31, 1.079_371_457_703_356_0), // Euphrosyne
        (52, 2.683_035_924_282_179_5), // Europa
        (65, 0.938_105_756_391_513_28), // Cybele
        (87, 2.168_232_073_699_691_0), // Sylvia
        (88, 1.189_807_708_812_190_8), // Thisbe
        (107, 1.443_738_403_186_600_1), // Camilla
        (511, 3.894_483_148_170_564_4), // Davida
        (704, 2.830_409_639_329_984_9), // Interamnia
    ]

    /// GM of a perturbing asteroid by number (nil: not one of SB441-N16).
    public static func perturberGM(number: Int) -> Double? {
        perturbingAsteroids.first { $0.number == number }?.gmKm3S2
    }

    /// The Marsden–Sekanina water-sublimation law g(r) = α (r/r₀)^−m (1 + (r/r₀)^n)^−k
    /// (Marsden, Sekanina & Yeomans 1973, AJ 78, 211), normalised to g(1 AU) = 1: JPL's default
    /// for comets when a solution does not set its own (`ALN`, `R0`, `NM`, `NN`, `NK`).
    public static let standardSublimation = SublimationLaw(alpha: 0.111_262_042_6, r0AU: 2.808, m: 2.15, n: 5.093, k: 4.6142)

    /// The inverse-square law JPL uses for asteroids' transverse (Yarkovsky) parameter A2 and
    /// sets explicitly in those solutions (`ALN`=1, `R0`=1, `NM`=2, `NK`=0).
    public static let inverseSquare = SublimationLaw(alpha: 1, r0AU: 1, m: 2, n: 0, k: 0)

    /// Seconds per day and km per AU as the non-gravitational parameters' units (AU/d²) need them.
    static let auPerDay2InKmS2 = Constants.auKm / (Constants.secondsPerDay * Constants.secondsPerDay)
}
