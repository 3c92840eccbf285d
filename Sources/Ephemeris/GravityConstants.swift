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

    /// The planets alone, where their moons are perturbers of their own: JPL satellite
    /// ephemerides JUP365 (Jupiter and the Galilean moons) and SAT441 (Saturn and its moons),
    /// as listed in JPL's "Planetary Satellite Physical Parameters".
    public static let jupiterGM = 126_686_531.900
    public static let saturnGM = 37_931_206.234
    public static let ioGM = 5_959.915
    public static let europaGM = 3_202.712
    public static let ganymedeGM = 9_887.833
    public static let callistoGM = 7_179.289
    public static let mimasGM = 2.503_5
    public static let enceladusGM = 7.211_3
    public static let tethysGM = 41.21
    public static let dioneGM = 73.116
    public static let rheaGM = 153.94
    public static let titanGM = 8_978.138
    public static let iapetusGM = 120.52
    public static let phobosGM = 7.087e-4 // Pätzold et al. 2014
    public static let deimosGM = 9.6e-5 // Jacobson 2010

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

    /// Zonal harmonics of a planet's field: reference radius and J2, J4, J6 (J3 for the Earth).
    public struct Zonal: Sendable, Hashable {
        public let referenceRadiusKm: Double
        /// J_n by degree: `coefficients[n]`, zero where not given (index 0 and 1 unused).
        public let coefficients: [Double]
    }

    /// Earth: EGM2008 (Pavlis et al. 2012) unnormalised J2, J3, J4. Jupiter: Juno (Durante et
    /// al. 2020, GRL 47). Saturn: Cassini Grand Finale (Iess et al. 2019, Science 364). Uranus
    /// and Neptune: Jacobson 2014 and 2009 (AJ 148:76, AJ 137:4322). Mars: MRO120D (Konopliv et
    /// al. 2016). Moon: GRAIL (Konopliv et al. 2013).
    public static func zonal(_ body: BodyID) -> Zonal? {
        switch body {
        case .earth: Zonal(referenceRadiusKm: 6_378.137, coefficients: [0, 0, 1.082_626_68e-3, -2.532_65e-6, -1.619_62e-6])
        case .moon: Zonal(referenceRadiusKm: 1_738.0, coefficients: [0, 0, 2.033_6e-4])
        case .mars: Zonal(referenceRadiusKm: 3_396.0, coefficients: [0, 0, 1.955_45e-3])
        case .jupiter: Zonal(referenceRadiusKm: 71_492, coefficients: [0, 0, 14_696.572e-6, 0, -586.609e-6, 0, 34.198e-6])
        case .saturn: Zonal(referenceRadiusKm: 60_330, coefficients: [0, 0, 16_290.573e-6, 0, -935.314e-6, 0, 86.340e-6])
        case .uranus: Zonal(referenceRadiusKm: 25_559, coefficients: [0, 0, 3_510.7e-6, 0, -34.2e-6])
        case .neptune: Zonal(referenceRadiusKm: 25_225, coefficients: [0, 0, 3_408.4e-6, 0, -33.4e-6])
        default: nil
        }
    }
}
