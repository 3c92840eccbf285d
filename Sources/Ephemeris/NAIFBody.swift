/// NAIF integer ids ("NAIF Integer ID codes" required reading) of the bodies the engine places
/// itself, and the built-in frames an SPK segment may be written in. SPK kernels name bodies
/// and frames only by these numbers.
public enum NAIFBody {
    /// What the engine knows for a NAIF id.
    public enum Known: Sendable, Hashable {
        /// The solar-system barycentre (0).
        case solarSystemBarycenter
        /// A body of the engine as it places it (the planets Mercury … Pluto as their system
        /// barycentres 1–9, which the engine also answers for 199, 299, 499, 799, 899 and 999:
        /// see ``centerOffsetKnown(_:)``).
        case body(BodyID)
        /// The Earth–Moon barycentre (3).
        case earthMoonBarycenter
        /// A planet's own centre where it differs from its system barycentre by more than a few
        /// metres and the engine knows the moons that make the difference: Jupiter (599) and
        /// Saturn (699).
        case planetCenter(BodyID)
    }

    /// The engine's answer for a NAIF id, nil for ids it does not place.
    public static func known(_ id: Int) -> Known? {
        switch id {
        case 0: return .solarSystemBarycenter
        case 3: return .earthMoonBarycenter
        case 10: return .body(.sun)
        case 1, 199: return .body(.mercury)
        case 2, 299: return .body(.venus)
        case 399: return .body(.earth)
        case 301: return .body(.moon)
        // Phobos and Deimos move the Mars barycentre by 20 cm: the barycentre is the planet.
        case 4, 499: return .body(.mars)
        case 401: return .body(.phobos)
        case 402: return .body(.deimos)
        case 5: return .body(.jupiter)
        case 599: return .planetCenter(.jupiter)
        case 501: return .body(.io)
        case 502: return .body(.europa)
        case 503: return .body(.ganymede)
        case 504: return .body(.callisto)
        case 6: return .body(.saturn)
        case 699: return .planetCenter(.saturn)
        case 601: return .body(.mimas)
        case 602: return .body(.enceladus)
        case 603: return .body(.tethys)
        case 604: return .body(.dione)
        case 605: return .body(.rhea)
        case 606: return .body(.titan)
        case 608: return .body(.iapetus)
        // The engine has no moons of Uranus, Neptune or Pluto: their planets are their system
        // barycentres (Neptune's centre is 74 km from it, Triton's share; Pluto's 2,100 km,
        // Charon's share) — documented, not hidden.
        case 7, 799: return .body(.uranus)
        case 8, 899: return .body(.neptune)
        case 9, 999: return .body(.pluto)
        // NAIF's id of a NORAD-catalogued object is −100000 − NORAD number (the ISS is 25544).
        case -125_544: return .body(.iss)
        default: return nil
        }
    }

    /// Whether the engine's place for `id` is only its system's barycentre standing in for the
    /// body (Uranus, Neptune, Pluto and their centres).
    public static func isBarycenterStandIn(_ id: Int) -> Bool {
        [799, 899, 999].contains(id)
    }

    /// A readable name: "Jupiter barycentre", "Mars", "solar-system barycentre", "NAIF -32".
    public static func name(_ id: Int) -> String {
        switch id {
        case 0: return "solar-system barycentre"
        case 1: return "Mercury barycentre"
        case 2: return "Venus barycentre"
        case 3: return "Earth-Moon barycentre"
        case 4: return "Mars barycentre"
        case 5: return "Jupiter barycentre"
        case 6: return "Saturn barycentre"
        case 7: return "Uranus barycentre"
        case 8: return "Neptune barycentre"
        case 9: return "Pluto barycentre"
        case 599: return "Jupiter"
        case 699: return "Saturn"
        default:
            if case let .body(b)? = known(id) { return b.rawValue.prefix(1).uppercased() + b.rawValue.dropFirst() }
            return "NAIF \(id)"
        }
    }

    /// The id a planetary (DE) kernel serves an engine body under: the Sun (10), the Earth (399),
    /// the Moon (301), the other planets and Pluto as their system barycentres (1–9, the ids
    /// ``known(_:)`` maps to them); nil for the moons of other planets and the ISS.
    public static func planetaryKernelID(_ body: BodyID) -> Int? { planetaryKernelIDs[body.index] }

    /// ``planetaryKernelID(_:)`` per ``BodyID/index``, derived from ``known(_:)``.
    static let planetaryKernelIDs: [Int?] = BodyID.allCases.map { body in
        switch body {
        case .sun, .earth, .moon: return id(body)
        default: return (1...9).first { known($0) == .body(body) }
        }
    }

    /// The NAIF id of an engine body (planets as their centres: 599, 699 …; the ISS by NORAD).
    public static func id(_ body: BodyID) -> Int {
        switch body {
        case .sun: 10
        case .mercury: 199
        case .venus: 299
        case .earth: 399
        case .mars: 499
        case .jupiter: 599
        case .saturn: 699
        case .uranus: 799
        case .neptune: 899
        case .pluto: 999
        case .moon: 301
        case .iss: -125_544
        case .phobos: 401
        case .deimos: 402
        case .io: 501
        case .europa: 502
        case .ganymede: 503
        case .callisto: 504
        case .mimas: 601
        case .enceladus: 602
        case .tethys: 603
        case .dione: 604
        case .rhea: 605
        case .titan: 606
        case .iapetus: 608
        }
    }

    /// The frame of an SPK segment as the engine can use it.
    public enum Frame: Sendable, Hashable {
        /// J2000 (1): the ICRF axes.
        case icrf
        /// ECLIPJ2000 (17): the engine's own axes.
        case eclipticJ2000
        /// A NAIF built-in IAU body-fixed frame (IAU_MARS is 10014), turned by the engine's
        /// IAU rotation of that body.
        case bodyFixed(BodyID)
    }

    /// The usable frame of a NAIF frame code, nil for any other (B1950, spacecraft frames,
    /// frames defined in frame kernels, …).
    public static func frame(_ code: Int) -> Frame? {
        switch code {
        case 1: return .icrf
        case 17: return .eclipticJ2000
        default: return iauFrames[code].map { .bodyFixed($0) }
        }
    }

    /// NAIF's built-in IAU_<body> frame codes for the engine's bodies (as CSPICE's `namfrm`
    /// reports them).
    static let iauFrames: [Int: BodyID] = [
        10010: .sun, 10011: .mercury, 10012: .venus, 10013: .earth, 10014: .mars, 10015: .jupiter, 10016: .saturn,
        10017: .uranus, 10018: .neptune, 10019: .pluto, 10020: .moon, 10021: .phobos, 10022: .deimos, 10023: .io,
        10024: .europa, 10025: .ganymede, 10026: .callisto, 10039: .mimas, 10040: .enceladus, 10041: .tethys,
        10042: .dione, 10043: .rhea, 10044: .titan, 10046: .iapetus,
    ]

    /// "J2000", "ECLIPJ2000", "IAU_MARS" or "frame 1400" for messages.
    public static func frameName(_ code: Int) -> String {
        switch code {
        case 1: return "J2000"
        case 2: return "B1950"
        case 3: return "FK4"
        case 13: return "GALACTIC"
        case 17: return "ECLIPJ2000"
        case 18: return "ECLIPB1950"
        default:
            if let b = iauFrames[code] { return "IAU_" + b.rawValue.uppercased() }
            return "frame \(code)"
        }
    }
}
