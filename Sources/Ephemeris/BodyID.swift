/// The 25 bodies the engine knows, by their public lowercase ids.
///
/// A closed set on purpose: every body needs a theory behind it, and a `switch` over this enum is
/// how the compiler checks that each one has one.
public enum BodyID: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    case sun
    case mercury, venus, earth, mars, jupiter, saturn, uranus, neptune, pluto
    case moon, iss
    case phobos, deimos
    case io, europa, ganymede, callisto
    case mimas, enceladus, tethys, dione, rhea, titan, iapetus

    public var description: String { rawValue }

    /// The eight planets and Pluto: bodies with a heliocentric Keplerian orbit of their own.
    public static let heliocentric: [BodyID] = [.mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]

    /// Bodies whose position is computed relative to a parent planet.
    public var parent: BodyID? {
        switch self {
        case .sun: return nil
        case .mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto: return .sun
        case .moon, .iss: return .earth
        case .phobos, .deimos: return .mars
        case .io, .europa, .ganymede, .callisto: return .jupiter
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus: return .saturn
        }
    }

    public var isSatellite: Bool {
        if let p = parent { return p != .sun }
        return false
    }

    /// Lists the ids for error messages: `"sun, mercury, …"`.
    public static var validList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

extension BodyID {
    /// Position in `allCases`, for array-indexed per-body storage on hot paths.
    @inlinable public var index: Int {
        switch self {
        case .sun: return 0
        case .mercury: return 1
        case .venus: return 2
        case .earth: return 3
        case .mars: return 4
        case .jupiter: return 5
        case .saturn: return 6
        case .uranus: return 7
        case .neptune: return 8
        case .pluto: return 9
        case .moon: return 10
        case .iss: return 11
        case .phobos: return 12
        case .deimos: return 13
        case .io: return 14
        case .europa: return 15
        case .ganymede: return 16
        case .callisto: return 17
        case .mimas: return 18
        case .enceladus: return 19
        case .tethys: return 20
        case .dione: return 21
        case .rhea: return 22
        case .titan: return 23
        case .iapetus: return 24
        }
    }

    public static let count = 25
}
