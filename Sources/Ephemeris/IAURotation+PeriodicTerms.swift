import Glibc

/// The periodic ("nutation–precession") terms of the IAU WGCCRE 2015 rotation models, in the
/// layout of NAIF's text PCK: each argument θ = θ0 + θ1·T (degrees, T in Julian centuries of
/// TDB from J2000) adds `ra·sin θ` to α0, `dec·cos θ` to δ0 and `w·sin θ` to W.
///
/// Source: Archinal et al. 2018, "Report of the IAU Working Group on Cartographic Coordinates
/// and Rotational Elements: 2015", Celest. Mech. Dyn. Astr. 130:22, tables 2 and 3 (the Moon's
/// terms unchanged from the 2009 report); the same numbers as NAIF's `pck00011.tpc`
/// (`BODYnnn_NUT_PREC_RA/DEC/PM` against `BODYn_NUT_PREC_ANGLES`).
public struct IAUPeriodicTerms: Sendable {
    /// One argument and what it adds to α0 (× sin θ), δ0 (× cos θ) and W (× sin θ), degrees.
    public struct Term: Sendable {
        public let phaseDeg: Double
        public let rateDegPerCentury: Double
        public let ra: Double
        public let dec: Double
        public let w: Double

        init(_ phaseDeg: Double, _ rateDegPerCentury: Double, ra: Double = 0, dec: Double = 0, w: Double = 0) {
            self.phaseDeg = phaseDeg
            self.rateDegPerCentury = rateDegPerCentury
            self.ra = ra
            self.dec = dec
            self.w = w
        }

        /// An argument the report writes per day (the Moon's E1…E13): θ = θ0 + rate·d.
        static func perDay(_ phaseDeg: Double, _ rateDegPerDay: Double, ra: Double = 0, dec: Double = 0, w: Double = 0) -> Term {
            Term(phaseDeg, rateDegPerDay * Constants.daysPerJulianCentury, ra: ra, dec: dec, w: w)
        }
    }

    public let terms: [Term]
    /// The terms four at a time (zero-amplitude padding) for `offsets`.
    let phase: [SIMD4<Double>], rate: [SIMD4<Double>]
    let ra: [SIMD4<Double>], dec: [SIMD4<Double>], w: [SIMD4<Double>]

    public init(terms: [Term]) {
        self.terms = terms
        func lanes(_ field: (Term) -> Double) -> [SIMD4<Double>] {
            stride(from: 0, to: terms.count, by: 4).map { start in
                var v = SIMD4<Double>()
                for lane in 0..<4 where start + lane < terms.count { v[lane] = field(terms[start + lane]) }
                return v
            }
        }
        phase = lanes(\.phaseDeg); rate = lanes(\.rateDegPerCentury)
        ra = lanes(\.ra); dec = lanes(\.dec); w = lanes(\.w)
    }

    /// The sums (Δα0, Δδ0, ΔW) in degrees at `T` Julian centuries of TDB from J2000: four
    /// arguments at a time, sine and cosine together (Mars's 16 terms are 4 evaluations).
    public func offsets(centuriesTDB T: Double) -> (ra: Double, dec: Double, w: Double) {
        var sumRA = SIMD4<Double>(), sumDec = SIMD4<Double>(), sumW = SIMD4<Double>()
        for i in phase.indices {
            let sc = SatelliteTrig.sinCos(degrees: phase[i] + rate[i] * T)
            sumRA += ra[i] * sc.sin
            sumDec += dec[i] * sc.cos
            sumW += w[i] * sc.sin
        }
        return (sumRA.sum(), sumDec.sum(), sumW.sum())
    }

    /// The bodies served that have periodic terms; every other IAU body has none in the report.
    public static func forBody(_ body: BodyID) -> IAUPeriodicTerms? {
        switch body {
        case .mercury: mercury
        case .moon: moon
        case .mars: mars
        case .jupiter: jupiter
        case .neptune: neptune
        default: nil
        }
    }

    /// Mercury (2015), W only: M1…M5 = 174.7910857° + 4.092335°·d, … (k·M1 harmonics);
    /// `BODY199_NUT_PREC_PM`, `BODY1_NUT_PREC_ANGLES`.
    public static let mercury = IAUPeriodicTerms(terms: [
        .perDay(174.791_085_7, 4.092_335, w: 0.010_672_57),
        .perDay(349.582_171_4, 8.184_670, w: -0.001_123_09),
        .perDay(164.373_257_1, 12.277_005, w: -0.000_110_40),
        .perDay(339.164_342_9, 16.369_340, w: -0.000_025_39),
        .perDay(153.955_428_6, 20.461_675, w: -0.000_005_71),
    ])

    /// The Moon (2009, kept in 2015): E1…E13 with rates per day; `BODY301_NUT_PREC_*`,
    /// `BODY3_NUT_PREC_ANGLES`. (W also has −1.4e−12·d², applied with the polynomial.)
    public static let moon = IAUPeriodicTerms(terms: [
        .perDay(125.045, -0.052_992_1, ra: -3.8787, dec: 1.5419, w: 3.5610), // E1
        .perDay(250.089, -0.105_984_2, ra: -0.1204, dec: 0.0239, w: 0.1208), // E2
        .perDay(260.008, 13.012_000_9, ra: 0.0700, dec: -0.0278, w: -0.0642), // E3
        .perDay(176.625, 13.340_715_4, ra: -0.0172, dec: 0.0068, w: 0.0158), // E4
        .perDay(357.529, 0.985_600_3, w: 0.0252), // E5
        .perDay(311.589, 26.405_708_4, ra: 0.0072, dec: -0.0029, w: -0.0066), // E6
        .perDay(134.963, 13.064_993_0, dec: 0.0009, w: -0.0047), // E7
        .perDay(276.617, 0.328_714_6, w: -0.0046), // E8
        .perDay(34.226, 1.748_487_7, w: 0.0028), // E9
        .perDay(15.134, -0.158_976_3, ra: -0.0052, dec: 0.0008, w: 0.0052), // E10
        .perDay(119.743, 0.003_609_6, w: 0.0040), // E11
        .perDay(239.961, 0.164_357_3, w: 0.0019), // E12
        .perDay(25.053, 12.959_008_8, ra: 0.0043, dec: -0.0009, w: -0.0044), // E13
    ])

    /// Mars (2015): four short-period terms in each angle plus the
    /// long-period one (0.5042615°/century, ~71,000 years) that moves the pole by 0.42° in α0 and
    /// 1.59° in δ0 and W by 0.58°; `BODY499_NUT_PREC_*`, `BODY4_NUT_PREC_ANGLES` 11…26.
    public static let mars = IAUPeriodicTerms(terms: [
        Term(198.991_226, 19_139.481_998_5, ra: 0.000_068),
        Term(226.292_679, 38_280.851_128_1, ra: 0.000_238),
        Term(249.663_391, 57_420.725_159_3, ra: 0.000_052),
        Term(266.183_510, 76_560.636_795_0, ra: 0.000_009),
        Term(79.398_797, 0.504_261_5, ra: 0.419_057),
        Term(122.433_576, 19_139.940_747_6, dec: 0.000_051),
        Term(43.058_401, 38_280.875_327_2, dec: 0.000_141),
        Term(57.663_379, 57_420.751_720_5, dec: 0.000_031),
        Term(79.476_401, 76_560.649_500_4, dec: 0.000_005),
        Term(166.325_722, 0.504_261_5, dec: 1.591_274),
        Term(129.071_773, 19_140.032_824_4, w: 0.000_145),
        Term(36.352_167, 38_281.047_359_1, w: 0.000_157),
        Term(56.668_646, 57_420.929_536_0, w: 0.000_040),
        Term(67.364_003, 76_560.255_221_5, w: 0.000_001),
        Term(104.792_680, 95_700.438_757_8, w: 0.000_001),
        Term(95.391_654, 0.504_261_5, w: 0.584_542),
    ])

    /// Jupiter (2015): Ja…Je (the Galilean satellites' periods and a long-period term), α0 and δ0
    /// only; `BODY599_NUT_PREC_RA/DEC`, `BODY5_NUT_PREC_ANGLES` 11…15.
    public static let jupiter = IAUPeriodicTerms(terms: [
        Term(99.360_714, 4_850.404_6, ra: 0.000_117, dec: 0.000_050), // Ja
        Term(175.895_369, 1_191.960_5, ra: 0.000_938, dec: 0.000_404), // Jb
        Term(300.323_162, 262.547_5, ra: 0.001_432, dec: 0.000_617), // Jc
        Term(114.012_305, 6_070.247_6, ra: 0.000_030, dec: -0.000_013), // Jd
        Term(49.511_251, 64.300_0, ra: 0.002_150, dec: 0.000_926), // Je
    ])

    /// Neptune (2015): N = 357.85° + 52.316°·T; `BODY899_NUT_PREC_*`, `BODY8_NUT_PREC_ANGLES` 1.
    public static let neptune = IAUPeriodicTerms(terms: [
        Term(357.85, 52.316, ra: 0.70, dec: -0.51, w: -0.48),
    ])
}
