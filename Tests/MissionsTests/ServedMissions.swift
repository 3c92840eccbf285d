import Astrodynamics
import Foundation
import Ephemeris
@testable import Missions
import MissionScene

/// The missions as the server serves them: `Resources/missions.json`, every kernel it lists
/// (`Resources/missions/`), DE440.
enum ServedMissions {
    static let catalogue: MissionCatalogue = {
        do { return try MissionCatalogue(json: TestMissions.bytes("missions.json")) } catch { fatalError("missions.json: \(error)") }
    }()

    /// Every kernel the missions list, in order, once.
    static let kernelFiles: [String] = {
        var files: [String] = []
        for m in catalogue.missions { for k in m.kernels where !files.contains(k) { files.append(k) } }
        return files
    }()

    static func kernelExists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: TestMissions.root.appendingPathComponent("Resources/missions/\(name)").path)
    }

    /// The kernels that exist (a missing one fails ``MissionCatalogueServedTests``, not every test).
    static let kernels: KernelBodies = {
        let files = kernelFiles.filter(kernelExists)
        do {
            let opened = try files.map { name in
                try SPKKernel(bytes: KernelBuffer(copying: TestMissions.bytes("missions/\(name)")), file: "Resources/missions/\(name)")
            }
            return try KernelBodies(opened, paths: SampledOrbitPath.make)
        } catch { fatalError("mission kernels: \(error)") }
    }()

    /// The engine as `serve` builds it: DE440, and the moons where the mission kernels place
    /// them (moved to where the spacecraft's samples put them) or the published flybys anchor
    /// them — the moons the kernels' paths were integrated against.
    static let served: Ephemeris = {
        let anchors = MoonFlybyAnchors.find(catalogue, kernels: kernels, ephemeris: built)
        return Ephemeris(catalogue: built.catalogue, kernel: built.kernel, satellites: kernels, moonAnchors: anchors)
    }()

    /// The engine the mission kernels' paths were integrated against: DE440, and the moons
    /// where the kernels moved them (else their theories).
    static let built = Ephemeris(catalogue: TestMissions.de440.catalogue, kernel: TestMissions.de440.kernel, satellites: kernels)

    /// The missions whose kernels all exist.
    static let engines: [String: MissionEngine] = {
        var out: [String: MissionEngine] = [:]
        for m in catalogue.missions where m.kernels.allSatisfy(kernelExists) {
            do { out[m.id] = try MissionEngine(mission: m, ephemeris: served, kernels: kernels) } catch { fatalError("\(m.id): \(error)") }
        }
        return out
    }()

    static func engine(_ id: String) -> MissionEngine {
        guard let e = engines[id] else { fatalError("no mission \(id)") }
        return e
    }

    /// The mission drawn in the scene, as the API draws it.
    static func scene(_ id: String) -> MissionScene { MissionScene(engine: engine(id)) }
}

/// The gravity a ballistic spacecraft feels, as the walk checks it: the body whose sphere of
/// influence holds it (else the Sun; the Moon inside its own) with its zonal harmonics and
/// moons (and Mars's C22 and S22), every other planet, the Moon and the Sun pulling.
final class WalkGravity {
    let ephemeris: Ephemeris
    private var models: [BodyID: GravityModel] = [:]

    init(ephemeris: Ephemeris) {
        self.ephemeris = ephemeris
    }

    /// The centre, its heliocentric state (planet centre, not barycentre) and its model.
    func center(forHeliocentric r: Vector3, seconds: Double) throws -> (body: BodyID, positionKm: Vector3, velocityKmS: Vector3, model: GravityModel) {
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        var body = BodyID.sun
        let moon = ephemeris.naifState(301, at: t)!
        if (r - moon.positionKm).length < 66_000 {
            body = .moon
        } else {
            for p in BodyID.heliocentric {
                let q = ephemeris.naifState(NAIFBody.id(p), at: t)!.positionKm
                if (r - q).length < q.length * pow(GravityConstants.gm(p) / GravityConstants.sunGM, 0.4) { body = p; break }
            }
        }
        let s = body == .sun ? (positionKm: Vector3.zero, velocityKmS: Vector3.zero) : ephemeris.naifState(NAIFBody.id(body), at: t)!
        return (body, s.positionKm, s.velocityKmS, try model(body))
    }

    func model(_ body: BodyID) throws -> GravityModel {
        if let m = models[body] { return m }
        let planets: [BodyID] = [.mercury, .venus, .earth, .moon, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto]
        let others = (body == .sun ? [] : [BodyID.sun]) + planets.filter { $0 != body }
        let moons = body == .sun ? [] : PlanetCenter.moons(of: body).filter { $0 != .phobos && $0 != .deimos }
        let zonal = GravityConstants.zonal(body).map { min($0.coefficients.count - 1, 6) } ?? 0
        let m = try GravityModel(ephemeris: ephemeris, center: body, perturbers: others + moons, zonalDegree: zonal >= 2 ? zonal : 0,
                                 sectoral: GravityConstants.sectoral(body) != nil)
        models[body] = m
        return m
    }
}
