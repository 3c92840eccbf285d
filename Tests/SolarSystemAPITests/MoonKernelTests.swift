import Foundation
import HTTPTestSupport
@testable import SolarSystemAPI
import Ephemeris
import Missions
import Sky
import Testing

/// A `--kernel` covering a moon (here Titan and Europa, from `scripts/make-moon-kernel-fixture.py`,
/// which also records what NAIF's CSPICE reads from it) wins over the moon's theory everywhere:
/// positions, telemetry, the scene and the sky, with `theory` and `model` naming the file.
@Suite("A loaded kernel covering a moon wins over its theory")
struct MoonKernelTests {
    struct Case {
        let flyby: String
        let moon: String
        let utc: String
        /// From the system's barycentre (the engine's `saturn` and `jupiter`).
        let moonFromBarycenterKm: Vector3
        let moonVelocityKmS: Vector3
        let moonFromPlanetCenterKm: Vector3
        let craftFromMoonKm: Double
    }

    static let fileName = "moons-titan-europa.bsp"

    static let cases: [Case] = {
        let bytes = RepositoryFiles.bytes("Tests/SolarSystemAPITests/Fixtures/moons-titan-europa.json")
        guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let list = root["cases"] as? [[String: Any]] else { fatalError("moon kernel fixture unreadable") }
        return list.map { c in
            Case(flyby: c["flyby"] as? String ?? "", moon: c["moon"] as? String ?? "", utc: c["utc"] as? String ?? "",
                 moonFromBarycenterKm: vector(c["moonFromBarycentreKm"]) ?? .zero, moonVelocityKmS: vector(c["moonVelocityKmS"]) ?? .zero,
                 moonFromPlanetCenterKm: vector(c["moonFromPlanetCentreKm"]) ?? .zero,
                 craftFromMoonKm: number(c["craftFromMoonKm"]) ?? 0)
        }
    }()

    /// The mission kernels, then the fixture, as `serve --kernel` loads it.
    static let services: APIServices = {
        do {
            let fixture = try SPKKernel(bytes: KernelBuffer(copying: RepositoryFiles.bytes("Tests/SolarSystemAPITests/Fixtures/" + fileName)), file: fileName)
            let bodies = try KernelBodies(APIServer.bodies.kernels + [fixture], paths: APIServer.bodies.pathMaker)
            return try APIServices(
                catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")), kernel: APIServer.kernel,
                stars: try StarCatalogue(csv: RepositoryFiles.bytes("Resources/stars.csv")), missions: APIServer.missions, bodies: bodies,
                deltaT: try DeltaTTable(csv: RepositoryFiles.bytes("Resources/iers-delta-t.csv")),
                openAPIDocument: RepositoryFiles.bytes("openapi.yaml"), clock: { APIServer.pinnedNow })
        } catch {
            fatalError("services with the moon kernel: \(error)")
        }
    }()

    static let server: TestServer = {
        do {
            let api = V1API(services: services)
            return try TestServer { router in api.register(on: router) }
        } catch {
            fatalError("cannot start the moon-kernel test server: \(error)")
        }
    }()

    static func planet(_ moon: String) -> String { moon == "titan" ? "saturn" : "jupiter" }
    static func mission(_ flyby: String) -> String { flyby.hasPrefix("cassini") ? "cassini" : "juno" }

    @Test("positions: the moon from its system's barycentre is CSPICE's, and theory and model name the kernel")
    func positions() throws {
        var checked = 0
        for c in Self.cases {
            let r = try Self.server.get("/v1/positions?date=\(c.utc)&bodies=\(c.moon)&center=\(Self.planet(c.moon))&units=km")
            let body = try #require(r.objects("bodies").first, "\(c.utc): \(r.bodyText)")
            let p = try #require(vector(body["position"]))
            // The fixture's TDB follows NAIF's two-term formula: microseconds from the server's.
            #expect((p - c.moonFromBarycenterKm).length < 0.05, "\(c.flyby) \(c.utc): \((p - c.moonFromBarycenterKm).length) km from CSPICE")
            let v = try #require(vector(body["velocity"]))
            #expect((v - c.moonVelocityKmS).length < 1e-5, "\(c.flyby) \(c.utc)")
            #expect((body["theory"] as? String)?.contains(Self.fileName) == true, "\(body["theory"] ?? "")")
            #expect((r.json["model"] as? String)?.contains(Self.fileName) == true)
            checked += 1
        }
        #expect(checked == 22)
        // The planet's centre, from the same kernel: the moon hangs from it.
        let c = Self.cases[5]
        let both = try Self.server.get("/v1/positions?date=\(c.utc)&bodies=titan,naif:699&center=saturn&units=km").objects("bodies")
        let titan = try #require(vector(both.first?["position"])), center = try #require(vector(both.last?["position"]))
        #expect(((titan - center) - c.moonFromPlanetCenterKm).length < 0.05, "\(((titan - center) - c.moonFromPlanetCenterKm).length) km")
        // Beyond the kernel's three days (and the days Cassini's kernel moves Titan about T88, to
        // 2012-12-04) the theory serves again, and says so.
        let outside = try Self.server.get("/v1/positions?date=2013-01-01&bodies=titan").objects("bodies").first
        #expect((outside?["theory"] as? String)?.hasPrefix("Harper & Taylor") == true)
    }

    @Test("telemetry and positions measure the spacecraft from the kernel's moon, as CSPICE does")
    func telemetry() throws {
        var checked = 0
        for c in Self.cases where c.craftFromMoonKm < 50_000 {
            let mission = Self.mission(c.flyby)
            let tm = try Self.server.get("/v1/missions/\(mission)/telemetry?date=\(c.utc)")
            let nearest = try #require((tm.objects("vehicles").first)?["nearestBody"] as? [String: Any], "\(tm.bodyText)")
            #expect(nearest["id"] as? String == c.moon, "\(c.utc): \(nearest)")
            let d = number(nearest["distanceKm"]) ?? 0
            #expect(abs(d - c.craftFromMoonKm) < 0.5, "\(c.flyby) \(c.utc): telemetry \(d) km, CSPICE \(c.craftFromMoonKm) km")
            let pos = try Self.server.get("/v1/positions?date=\(c.utc)&bodies=\(mission)&center=\(c.moon)&units=km").objects("bodies").first
            #expect(abs((number(pos?["distance"]) ?? 0) - d) < 1e-3, "positions and telemetry agree on the moon")
            checked += 1
        }
        #expect(checked >= 8)
    }

    @Test("the scene and the sky draw and point at the kernel's moon")
    func sceneAndSky() throws {
        let c = try #require(Self.cases.first { $0.flyby == "juno-europa" && $0.utc.hasSuffix("09:36:00Z") })
        func sceneMoon(_ server: TestServer) throws -> Vector3? {
            vector(try server.get("/v1/scene?date=\(c.utc)").objects("bodies").first { $0["id"] as? String == "europa" }?["position"])
        }
        let withKernel = try #require(try sceneMoon(Self.server)), plain = try #require(try sceneMoon(APIServer.shared))
        #expect((withKernel - plain).length > 1e-4, "the scene moves Europa to the kernel's place")
        let sky = "/v1/sky?date=\(c.utc)&lat=0&lon=0&bodies=europa"
        func place(_ r: RawResponse) throws -> Vector3 {
            let b = try #require(r.objects("bodies").first)
            let ra = try #require(number(b["raJ2000Deg"])) * .pi / 180, dec = try #require(number(b["decJ2000Deg"])) * .pi / 180
            return Vector3(cos(dec) * cos(ra), cos(dec) * sin(ra), sin(dec)) * (try #require(number(b["distanceKm"])))
        }
        let withSkyKernel = try Self.server.get(sky)
        let moved = (try place(withSkyKernel) - (try place(try APIServer.get(sky)))).length
        #expect(moved > 300 && moved < 20_000, "the sky places Europa from the kernel: \(moved) km from the theory's")
        #expect((withSkyKernel.json["model"] as? String)?.contains(Self.fileName) == true)
    }
}
