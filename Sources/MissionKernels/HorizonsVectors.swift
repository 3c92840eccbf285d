import Astrodynamics
import Foundation
import Ephemeris
import Missions

/// State vectors (or positions) of one spacecraft as JPL Horizons publishes them, turned into
/// the engine's frame: TDB seconds past J2000, km and km/s, ecliptic J2000 axes, relative to the
/// Sun's centre (heliocentric) or the Earth's (geocentric), whichever the file's centre leads to.
///
/// Two shapes are read: the `mcs-ephem-v1` JSON of `../shared/data/missions/` (`t_jd` Julian dates
/// in UT, `pv` the flat list x, y, z, vx, vy, vz in AU and AU/day, ICRF axes, origin the
/// solar-system barycentre `@0`) and Horizons' own text table (`$$SOE` … `$$EOE` rows of
/// `JDTDB, calendar date, ΔT, X, Y, Z[, VX, VY, VZ]` with the header naming the centre, the
/// reference frame and the units), as in the Artemis II file.
public struct HorizonsVectors: Sendable {
    public enum Center: Sendable, Hashable {
        case sun
        case earth
    }

    /// Where the file came from, for kernels' comments and error messages.
    public let name: String
    /// The NAIF id Horizons gives the target (`-32`), nil where the file does not say.
    public let naifID: Int?
    public let center: Center
    /// Time order, strictly increasing. Velocities nil when the file gives positions only.
    public let seconds: [Double]
    public let positionsKm: [Vector3]
    public let velocitiesKmS: [Vector3]?

    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `ephemeris` places the solar-system barycentre (DE440 inside its span) to make
    /// barycentric vectors heliocentric.
    public static func read(json bytes: [UInt8], name: String, ephemeris: Ephemeris) throws(ReadError) -> HorizonsVectors {
        struct File: Decodable {
            struct Meta: Decodable {
                struct Frame: Decodable {
                    let center: String
                    let ref_system: String
                    let out_units: String
                    let time_type: String
                }
                struct Object: Decodable { let spkid: Int? }
                let frame: Frame
                let object: Object?
            }
            let t_jd: [Double]
            let pv: [Double]
            let meta: Meta
        }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: Data(bytes)) } catch {
            throw ReadError(description: "\(name): not a Horizons vector file (mcs-ephem-v1): \(error)")
        }
        let f = file.meta.frame
        guard f.center == "@0", f.ref_system == "ICRF", f.out_units == "AU-D", f.time_type == "UT" else {
            throw ReadError(description: "\(name): frame \(f.center) \(f.ref_system) \(f.out_units) \(f.time_type); expected @0 ICRF AU-D UT")
        }
        guard file.pv.count == 6 * file.t_jd.count, !file.t_jd.isEmpty else {
            throw ReadError(description: "\(name): \(file.t_jd.count) epochs for \(file.pv.count) numbers (6 per epoch expected)")
        }
        let toEcliptic = Precession.equatorialToEclipticJ2000
        let au = Constants.auKm, perDay = Constants.auKm / Constants.secondsPerDay
        var seconds: [Double] = [], positions: [Vector3] = [], velocities: [Vector3] = []
        for (k, jd) in file.t_jd.enumerated() {
            let t: Instant
            do { t = try TimeScale.utc(julianDay: jd) } catch { throw ReadError(description: "\(name): epoch \(jd): \(error)") }
            let p = file.pv[(6 * k)..<(6 * k + 6)].map { $0 }
            guard p.allSatisfy(\.isFinite) else { throw ReadError(description: "\(name): epoch \(jd) has a non-finite number") }
            // Barycentric → heliocentric: subtract the Sun's barycentric state.
            let ssb = ephemeris.solarSystemBarycenter(at: t)
            seconds.append(t.daysSinceJ2000TDB * Constants.secondsPerDay)
            positions.append(toEcliptic * Vector3(p[0], p[1], p[2]) * au + ssb.positionKm)
            velocities.append(toEcliptic * Vector3(p[3], p[4], p[5]) * perDay + ssb.velocityKmS)
        }
        try checkOrder(seconds, name: name)
        return HorizonsVectors(name: name, naifID: file.meta.object?.spkid, center: .sun, seconds: seconds, positionsKm: positions, velocitiesKmS: velocities)
    }

    /// A Horizons text table of geocentric ecliptic-J2000 positions or states in AU (and AU/day)
    /// against JDTDB, as its header states.
    public static func read(text bytes: [UInt8], name: String) throws(ReadError) -> HorizonsVectors {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
        func header(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key) }.map { String($0.dropFirst(key.count)).trimmingCharacters(in: .whitespaces) }
        }
        guard let center = header("Center body name:"), center.hasPrefix("Earth (399)") else {
            throw ReadError(description: "\(name): the centre must be Earth (399); the header says \(header("Center body name:") ?? "nothing")")
        }
        guard let frame = header("Reference frame :"), frame.hasPrefix("Ecliptic of J2000.0") else {
            throw ReadError(description: "\(name): the frame must be Ecliptic of J2000.0")
        }
        guard let units = header("Output units    :"), units.hasPrefix("AU-D") else {
            throw ReadError(description: "\(name): units must be AU-D")
        }
        let naif = header("Target body name:").flatMap { s -> Int? in
            guard let open = s.lastIndex(of: "("), let close = s.lastIndex(of: ")"), open < close else { return nil }
            return Int(s[s.index(after: open)..<close])
        }
        guard let soe = lines.firstIndex(of: "$$SOE"), let eoe = lines.firstIndex(of: "$$EOE"), soe < eoe else {
            throw ReadError(description: "\(name): no $$SOE … $$EOE block")
        }
        let au = Constants.auKm, perDay = Constants.auKm / Constants.secondsPerDay
        var seconds: [Double] = [], positions: [Vector3] = [], velocities: [Vector3] = []
        var withVelocity: Bool?
        for (n, line) in lines[(soe + 1)..<eoe].enumerated() where !line.isEmpty {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            // JDTDB, calendar date, ΔT, X, Y, Z[, VX, VY, VZ]
            guard fields.count == 6 || fields.count == 9, let jd = Double(fields[0]) else {
                throw ReadError(description: "\(name): row \(n + 1) has \(fields.count) fields; expected JDTDB, date, ΔT, X, Y, Z[, VX, VY, VZ]")
            }
            let numbers = fields[3...].compactMap(Double.init)
            guard numbers.count == fields.count - 3, numbers.allSatisfy(\.isFinite) else { throw ReadError(description: "\(name): row \(n + 1): not numbers") }
            if withVelocity == nil { withVelocity = fields.count == 9 }
            guard withVelocity == (fields.count == 9) else { throw ReadError(description: "\(name): row \(n + 1) differs in shape from the first") }
            seconds.append((jd - Constants.jdJ2000) * Constants.secondsPerDay)
            positions.append(Vector3(numbers[0], numbers[1], numbers[2]) * au)
            if fields.count == 9 { velocities.append(Vector3(numbers[3], numbers[4], numbers[5]) * perDay) }
        }
        guard !seconds.isEmpty else { throw ReadError(description: "\(name): no rows") }
        try checkOrder(seconds, name: name)
        return HorizonsVectors(name: name, naifID: naif, center: .earth, seconds: seconds, positionsKm: positions,
                               velocitiesKmS: withVelocity == true ? velocities : nil)
    }

    static func checkOrder(_ seconds: [Double], name: String) throws(ReadError) {
        for (k, (a, b)) in zip(seconds, seconds.dropFirst()).enumerated() where !(b > a) {
            throw ReadError(description: "\(name): epoch \(k + 2) is not after epoch \(k + 1)")
        }
    }

    /// The states (velocities required).
    public var states: [OrbitalState] {
        guard let v = velocitiesKmS else { return [] }
        return seconds.indices.map { OrbitalState(seconds: seconds[$0], positionKm: positionsKm[$0], velocityKmS: v[$0]) }
    }

    /// Several files of the same spacecraft merged into one time-ordered list (finer files and
    /// the daily one overlap: an epoch within `tolerance` seconds of one already taken is the
    /// same sample and is dropped).
    public static func merge(_ files: [HorizonsVectors], tolerance: Double = 1) -> [OrbitalState] {
        var all: [OrbitalState] = files.flatMap(\.states).sorted { $0.seconds < $1.seconds }
        var out: [OrbitalState] = []
        out.reserveCapacity(all.count)
        for s in all {
            if let last = out.last, s.seconds - last.seconds < tolerance { continue }
            out.append(s)
        }
        all = out
        return all
    }
}
