import Foundation
import HTTPTestSupport
@testable import SolarSystemAPI
import Ephemeris
import Logging
import Missions
import Rendering
import Sky
import Storage

/// The repository's data files, read the way `solarsystem serve` reads them.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
            fatalError("\(path) not found under \(root.path)")
        }
        return [UInt8](data)
    }
}

/// One live server with the v1 API on an ephemeral loopback port, shared by the API suites.
/// Its clock is pinned so `now` is reproducible: 2026-11-22T12:00:00Z.
enum APIServer {
    static let pinnedNow = 1_795_348_800.0

    /// The sample cache on an in-memory database, migrated from the repository's `Migrations/`.
    static let cache: SampleCache = {
        do {
            let db = try Database(path: ":memory:")
            _ = try Migrator(directory: RepositoryFiles.root.appendingPathComponent("Migrations")).migrate(db)
            return SampleCache(database: db)
        } catch {
            fatalError("cache: \(error)")
        }
    }()

    /// The bundled DE440 kernel, as `serve` loads it by default (here from a copy in memory).
    static let kernel: PlanetaryKernel = {
        do {
            return try PlanetaryKernel(bytes: KernelBuffer(copying: RepositoryFiles.bytes("Resources/de440-1900-2100.bsp")), file: "Resources/de440-1900-2100.bsp")
        } catch {
            fatalError("kernel: \(error)")
        }
    }()

    static let missions: MissionCatalogue = {
        do { return try MissionCatalogue(json: RepositoryFiles.bytes("Resources/missions.json")) } catch { fatalError("missions: \(error)") }
    }()

    /// Every kernel the missions list, from `Resources/missions/`, as `serve` loads them.
    static let bodies: KernelBodies = {
        var files: [String] = []
        for m in missions.missions { for k in m.kernels where !files.contains(k) { files.append(k) } }
        do {
            return try KernelBodies(files.map { try SPKKernel(bytes: KernelBuffer(copying: RepositoryFiles.bytes("Resources/missions/" + $0)), file: $0) },
                                    paths: SampledOrbitPath.make)
        } catch {
            fatalError("mission kernels: \(error)")
        }
    }()

    /// The bundled textures, decoded once for every test server that renders views.
    static let textures: TextureSet = {
        do { return try TextureSet.decode(files: Dictionary(uniqueKeysWithValues: TextureSet.fileNames.map { ($0, RepositoryFiles.bytes("Resources/textures/" + $0)) })) } catch {
            fatalError("textures: \(error)")
        }
    }()

    static let services: APIServices = {
        do {
            return try APIServices(
                catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")),
                kernel: kernel,
                stars: try StarCatalogue(csv: RepositoryFiles.bytes("Resources/stars.csv")),
                missions: missions,
                bodies: bodies,
                sampleCache: cache,
                deltaT: try DeltaTTable(csv: RepositoryFiles.bytes("Resources/iers-delta-t.csv")),
                textures: textures,
                web: try StaticSite.load(directory: RepositoryFiles.root.appendingPathComponent("Resources/web")),
                openAPIDocument: RepositoryFiles.bytes("openapi.yaml"),
                clock: { pinnedNow })
        } catch {
            fatalError("services: \(error)")
        }
    }()

    static let shared: TestServer = {
        do {
            let api = V1API(services: services)
            return try TestServer { router in api.register(on: router) }
        } catch {
            fatalError("cannot start the API test server: \(error)")
        }
    }()

    static func get(_ target: String, headers: [String: String] = [:]) throws -> RawResponse {
        try shared.get(target, headers: headers)
    }
}

extension RawResponse {
    /// The body as JSON of any shape.
    var anyJSON: Any? { try? JSONSerialization.jsonObject(with: Data(body)) }

    /// `bodies` (or another array member) as a list of objects.
    func objects(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }

    /// The CSV body as rows of fields (no quoting in this API's CSV).
    var csvRows: [[String]] {
        bodyText.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }
}

/// `[x, y, z]` from a JSON array of numbers.
func vector(_ any: Any?) -> Vector3? {
    guard let a = any as? [Double], a.count == 3 else {
        guard let n = any as? [NSNumber], n.count == 3 else { return nil }
        return Vector3(n[0].doubleValue, n[1].doubleValue, n[2].doubleValue)
    }
    return Vector3(a[0], a[1], a[2])
}

func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }

/// The reference fixture's cases (JPL DE440 via Skyfield), as the API tests compare with them.
enum ReferenceCases {
    struct Case {
        let utc: String
        let jdUTC: Double
        let heliocentric: [String: Vector3]
        let moonKm: Vector3
    }

    static let all: [Case] = {
        let bytes = RepositoryFiles.bytes("Tests/EphemerisTests/Fixtures/ephemeris-reference.json")
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let cases = root["cases"] as? [[String: Any]] else { fatalError("reference fixture unreadable") }
        return cases.map { c in
            let helio = (c["heliocentric_ecliptic_j2000_au"] as? [String: [Double]] ?? [:]).mapValues { Vector3($0[0], $0[1], $0[2]) }
            let m = c["geocentric_moon_ecliptic_j2000_km"] as? [Double] ?? [0, 0, 0]
            return Case(utc: c["utc"] as? String ?? "", jdUTC: c["jd_utc"] as? Double ?? 0, heliocentric: helio, moonKm: Vector3(m[0], m[1], m[2]))
        }
    }()
}
