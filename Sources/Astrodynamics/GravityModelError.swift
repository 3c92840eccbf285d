import Ephemeris

/// Why a ``GravityModel`` cannot be built as asked: the centre or a perturber is one it cannot
/// place, or the harmonics asked for do not exist.
public enum GravityModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Centres are the Sun, the planets (Mercury … Neptune), Pluto, the Earth and the Moon.
    case unsupportedCenter(BodyID)
    /// Perturbers are the Sun, the planets as system barycentres, Pluto, the Earth and the Moon,
    /// and the moons of the centre planet; never the centre itself.
    case unsupportedPerturber(BodyID, center: BodyID)
    case duplicatePerturber(BodyID)
    /// Zonal harmonics were asked of a body without any in ``GravityConstants/zonal(_:)``.
    case noZonalHarmonics(BodyID)
    /// The zonal degree is 0 (none) or 2 … 6.
    case invalidZonalDegree(Int)
    /// Sectoral harmonics were asked of a body without any in ``GravityConstants/sectoral(_:)``.
    case noSectoralHarmonics(BodyID)

    public var description: String {
        switch self {
        case .unsupportedCenter(let b): "\(b) cannot be a centre (the Sun, the planets, Pluto, the Earth and the Moon can)"
        case .unsupportedPerturber(let b, let c): "\(b) cannot perturb an orbit about \(c) (the Sun, the planets, Pluto, the Earth, the Moon and the centre's own moons can)"
        case .duplicatePerturber(let b): "\(b) is listed twice as a perturber"
        case .noZonalHarmonics(let b): "no zonal harmonics are known for \(b)"
        case .invalidZonalDegree(let n): "zonal degree \(n): use 0 (none) or 2 … 6"
        case .noSectoralHarmonics(let b): "no sectoral harmonics are known for \(b) (Mars's are)"
        }
    }
}
