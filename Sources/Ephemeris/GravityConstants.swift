/// Gravitational parameters and zonal harmonics (the missions' propagators, the solar-system
/// barycentre, the planets' centres), each with its
/// source. GM in km³/s²; radii in km; J_n unnormalised.
public enum GravityConstants {
    /// GM of the Sun and of each planetary system (planet plus its moons), JPL DE440
    /// (Park et al. 2021, AJ 161:105, Table 8), the values of the kernel the engine reads.
    public static let sunGM = 132_712_440_041.279_419
    public static let mercurySystemGM = 22_031.868_551
    public static let venusSystemGM = 324_858.592_000
    public static let earthGM = 398_600.435_507 // DE440
    public static let moonGM = Constants.moonGMKm3PerS2 // DE440
    public static let marsSystemGM = 42_828.375_816
    public static let jupiterSystemGM = 126_712_764.100_000
    public static let saturnSystemGM = 37_940_584.841_800
    public static let uranusSystemGM = 5_794_556.400_000
    public static let neptuneSystemGM = 6_836_527.100_580
    public static let plutoSystemGM = 975.500_000

    /// The planets alone, where their moons are perturbers of their own, and the moons: JPL
    /// satellite ephemerides JUP365 (Jupiter and the Galilean moons), SAT441 (Saturn and its
    /// moons) and MAR097 (Phobos, Deimos), as JPL's Solar System Dynamics group lists them in
    /// "Planetary Satellite Physical Parameters" (ssd.jpl.nasa.gov/sats/phys_par), all digits
    /// given there.
    public static let jupiterGM = 126_686_531.900 // JUP365
    public static let saturnGM = 37_931_206.234 // SAT441
    public static let ioGM = 5_959.915_47 // JUP365
    public static let europaGM = 3_202.712_10 // JUP365
    public static let ganymedeGM = 9_887.832_75 // JUP365
    public static let callistoGM = 7_179.283_40 // JUP365
    public static let mimasGM = 2.503_49 // SAT441
    public static let enceladusGM = 7.210_37 // SAT441
    public static let tethysGM = 41.213_53 // SAT441
    public static let dioneGM = 73.116_07 // SAT441
    public static let rheaGM = 153.941_75 // SAT441
    public static let titanGM = 8_978.137_10 // SAT441
    public static let iapetusGM = 120.515_11 // SAT441
    public static let phobosGM = 7.087e-4 // MAR097 (Jacobson & Lainey 2014)
    public static let deimosGM = 9.62e-5 // MAR097 (Jacobson & Lainey 2014)

    /// GM of a body as the engine places it: planets Mercury … Pluto as their whole systems
    /// (the DE kernel's barycentres), the Earth and the Moon apart, moons alone. The ISS has
    /// no gravity worth the name.
    public static func gm(_ body: BodyID) -> Double {
        switch body {
        case .sun: sunGM
        case .mercury: mercurySystemGM
        case .venus: venusSystemGM
        case .earth: earthGM
        case .moon: moonGM
        case .mars: marsSystemGM
        case .jupiter: jupiterSystemGM
        case .saturn: saturnSystemGM
        case .uranus: uranusSystemGM
        case .neptune: neptuneSystemGM
        case .pluto: plutoSystemGM
        case .iss: 0
        case .phobos: phobosGM
        case .deimos: deimosGM
        case .io: ioGM
        case .europa: europaGM
        case .ganymede: ganymedeGM
        case .callisto: callistoGM
        case .mimas: mimasGM
        case .enceladus: enceladusGM
        case .tethys: tethysGM
        case .dione: dioneGM
        case .rhea: rheaGM
        case .titan: titanGM
        case .iapetus: iapetusGM
        }
    }

    /// Zonal harmonics of a body's field: reference radius and J2 … J6 as published (zeros where
    /// a source gives none).
    public struct Zonal: Sendable, Hashable {
        public let referenceRadiusKm: Double
        /// J_n by degree: `coefficients[n]`, zero where not given (index 0 and 1 unused).
        public let coefficients: [Double]
    }

    /// Sources, each checked against the published numbers:
    /// - Earth: EGM2008 (Pavlis et al. 2012, JGR 117, B04406), tide-free as distributed, its
    ///   fully normalised C̄n0 turned into J_n = −√(2n+1)·C̄n0, on EGM2008's own reference
    ///   radius 6,378.1363 km (not WGS 84's 6,378.137 km).
    /// - Moon: GRAIL GL0660B (Konopliv et al. 2013, JGR Planets 118, 1415), zero-tide J2 (the
    ///   permanent tide raised by the Earth is part of the field an orbiter feels), radius
    ///   1,738.0 km.
    /// - Mars: MRO120D (Konopliv et al. 2016, Icarus 274, 253), C̄20 = −8.750220925·10⁻⁴ at
    ///   3,396.0 km.
    /// - Jupiter: Juno (Durante et al. 2020, GRL 47, e2019GL086572), 71,492 km.
    /// - Saturn: Cassini Grand Finale (Iess et al. 2019, Science 364, 1052), 60,330 km.
    /// - Uranus: Jacobson 2014 (AJ 148:76), 25,559 km. Neptune: Jacobson 2009 (AJ 137:4322),
    ///   25,225 km.
    public static func zonal(_ body: BodyID) -> Zonal? {
        switch body {
        case .earth: Zonal(referenceRadiusKm: 6_378.136_3, coefficients: egm2008)
        case .moon: Zonal(referenceRadiusKm: 1_738.0, coefficients: [0, 0, 2.033_053_0e-4])
        case .mars: Zonal(referenceRadiusKm: 3_396.0, coefficients: [0, 0, 8.750_220_925e-4 * 5.0.squareRoot()])
        case .jupiter: Zonal(referenceRadiusKm: 71_492, coefficients: [0, 0, 14_696.572e-6, 0, -586.609e-6, 0, 34.198e-6])
        case .saturn: Zonal(referenceRadiusKm: 60_330, coefficients: [0, 0, 16_290.573e-6, 0, -935.314e-6, 0, 86.340e-6])
        case .uranus: Zonal(referenceRadiusKm: 25_559, coefficients: [0, 0, 3_510.68e-6, 0, -34.17e-6])
        case .neptune: Zonal(referenceRadiusKm: 25_225, coefficients: [0, 0, 3_408.428e-6, 0, -33.398e-6])
        default: nil
        }
    }

    /// A body's degree-2 sectoral harmonics, unnormalised: C22 and S22 on a reference radius,
    /// in the body-fixed frame of its IAU rotation.
    public struct Sectoral: Sendable, Hashable {
        public let referenceRadiusKm: Double
        public let c22: Double, s22: Double
    }

    /// Mars: MRO120D (Konopliv et al. 2016, Icarus 274, 253; PDS MRO-M-RSS-5-SDP-V1,
    /// jgmro_120d_sha.tab), fully normalised C̄22 = −8.463302656·10⁻⁵, S̄22 = 4.893941832·10⁻⁵ at
    /// 3,396.0 km, unnormalised by √(2·5·0!/4!) = √(5/12). The largest of Mars's tesseral terms
    /// (Tharsis): up to 1.3 mm/s² at a Mars orbiter's 300 km, and with Mars turning under the orbit
    /// the along-track drift it drives comes and goes twice a Martian day. Only Mars's are
    /// served: no orbiter here circles another body low enough to need them.
    public static func sectoral(_ body: BodyID) -> Sectoral? {
        let unnormalize = (5.0 / 12).squareRoot()
        switch body {
        case .mars: return Sectoral(referenceRadiusKm: 3_396.0, c22: -8.463_302_655_983e-5 * unnormalize, s22: 4.893_941_832_167e-5 * unnormalize)
        default: return nil
        }
    }

    /// EGM2008's fully normalised zonal coefficients C̄20 … C̄60 (Pavlis et al. 2012, as
    /// distributed by NGA), unnormalised: J_n = −√(2n+1)·C̄n0.
    static let egm2008: [Double] = {
        let normalized: [Double] = [0, 0, -0.484_165_143_790_815e-3, 0.957_161_207_093_473e-6,
                                    0.539_965_866_638_991e-6, 0.686_702_913_736_681e-7, -0.149_953_927_978_527e-6]
        return normalized.enumerated().map { n, c in n < 2 ? 0 : -c * Double(2 * n + 1).squareRoot() }
    }()
}
