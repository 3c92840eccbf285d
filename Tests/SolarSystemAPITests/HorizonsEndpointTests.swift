import Foundation
import Testing
import HTTPTestSupport
@testable import SolarSystemAPI
import Ephemeris
import Sky
import SmallBodies

/// The Horizons dialect through the real server: the bundled small bodies, the MPC's observatory
/// codes and the constellation boundaries from `Resources/`, as `serve` loads them.
enum HorizonsServer {
    static let services: APIServices = {
        do {
            return try APIServices(
                catalogue: try Catalogue(json: RepositoryFiles.bytes("Resources/bodies.json")), kernel: APIServer.kernel,
                stars: try StarCatalogue(csv: RepositoryFiles.bytes("Resources/stars.csv")), missions: APIServer.missions,
                bodies: APIServer.bodies, deltaT: try DeltaTTable(csv: RepositoryFiles.bytes("Resources/iers-delta-t.csv")),
                openAPIDocument: [], smallBodies: SmallBodyServer.feed,
                observatories: try ObservatoryCodes(text: RepositoryFiles.bytes("Resources/observatories/ObsCodes.html"), source: "ObsCodes.html"),
                constellations: try Constellations(table: RepositoryFiles.bytes("Resources/constellations/roman1987-boundaries.dat")),
                clock: { APIServer.pinnedNow })
        } catch {
            fatalError("horizons services: \(error)")
        }
    }()

    static let shared: TestServer = {
        do {
            let api = V1API(services: services)
            return try TestServer { router in api.register(on: router) }
        } catch {
            fatalError("cannot start the Horizons test server: \(error)")
        }
    }()

    static func query(_ pairs: [(String, String)]) -> String {
        pairs.map { QueryEncoding.component($0.0) + "=" + QueryEncoding.component($0.1) }.joined(separator: "&")
    }

    static func get(_ pairs: [(String, String)]) throws -> RawResponse {
        try shared.get("/api/horizons.api?" + query(pairs))
    }

    static func post(_ body: String, contentType: String = "application/x-www-form-urlencoded") throws -> RawResponse {
        let c = try shared.client()
        defer { c.close() }
        try c.send("POST /api/horizons.api HTTP/1.1\r\nHost: test\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return try c.readResponse()
    }

    /// The rows between `$$SOE` and `$$EOE`, split at commas.
    static func rows(_ text: String) -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let soe = lines.firstIndex(of: "$$SOE"), let eoe = lines.firstIndex(of: "$$EOE") else { return [] }
        return lines[(soe + 1)..<eoe].map { $0.components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

@Suite("The Horizons API dialect through the server", .serialized)
struct HorizonsEndpointTests {
    static let marsVectors: [(String, String)] = [
        ("format", "text"), ("COMMAND", "'499'"), ("EPHEM_TYPE", "VECTORS"), ("CENTER", "'500@10'"), ("REF_PLANE", "ECLIPTIC"),
        ("OUT_UNITS", "AU-D"), ("CSV_FORMAT", "YES"), ("VEC_TABLE", "2"), ("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-01-03'"),
        ("STEP_SIZE", "'1 d'"),
    ]

    @Test("VECTORS for Mars: Horizons' text layout, and the rows are /v1/positions' heliocentric ecliptic states to the printed digits")
    func vectorsMatchV1() throws {
        let r = try HorizonsServer.get(Self.marsVectors)
        #expect(r.status == 200)
        #expect(r.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(r.bodyText.hasPrefix("API VERSION: 1.2\nAPI SOURCE: NASA/JPL Horizons API\n\n"))
        #expect(r.bodyText.contains("Target body name: Mars (499)"))
        let rows = HorizonsServer.rows(r.bodyText)
        #expect(rows.count == 3)
        for row in rows {
            let jdTDB = try #require(Double(row[0]))
            let v1 = try APIServer.get("/v1/positions/mars?times=jd:\(jdTDB - 69.184 / 86_400)&frame=ecliptic-j2000&center=sun&units=au")
            #expect(v1.status == 200)
            let sample = try #require((v1.json["samples"] as? [[String: Any]])?.first)
            let p = try #require(vector(sample["position"])), v = try #require(vector(sample["velocity"]))
            let ours = Vector3(Double(row[2])!, Double(row[3])!, Double(row[4])!)
            let vel = Vector3(Double(row[5])!, Double(row[6])!, Double(row[7])!)
            // 16 significant digits printed; the UTC → TDB round trip through jd: costs ~1e-9 d.
            #expect((ours - p).length * Constants.auKm < 1, "position (km) \((ours - p).length * Constants.auKm) km")
            #expect((vel - v).length * Constants.auKm / 86_400 < 1e-6)
        }
    }

    @Test("format=json (the default): Horizons' envelope, the same text in \"result\"; POST with a form gives the same answer")
    func jsonAndPost() throws {
        var pairs = Self.marsVectors
        pairs.removeFirst()
        let r = try HorizonsServer.get(pairs)
        #expect(r.status == 200)
        #expect(r.header("Content-Type")?.hasPrefix("application/json") == true)
        let signature = try #require(r.json["signature"] as? [String: Any])
        #expect(signature["source"] as? String == "NASA/JPL Horizons API")
        #expect(signature["version"] as? String == "1.2")
        let result = try #require(r.json["result"] as? String)
        let text = try HorizonsServer.get(Self.marsVectors).bodyText
        #expect("API VERSION: 1.2\nAPI SOURCE: NASA/JPL Horizons API\n\n" + result == text)
        let posted = try HorizonsServer.post(HorizonsServer.query(pairs))
        #expect(posted.status == 200)
        #expect(posted.json["result"] as? String == result)
        let multipart = try HorizonsServer.post("x", contentType: "multipart/form-data; boundary=x")
        #expect(multipart.status == 415)
    }

    @Test("Not a Horizons request at all: 400 problems naming the parameter")
    func notHorizons() throws {
        let none = try HorizonsServer.get([("format", "text"), ("EPHEM_TYPE", "VECTORS")])
        #expect(none.status == 400)
        #expect(none.header("Content-Type")?.hasPrefix("application/problem+json") == true)
        #expect(none.json["parameter"] as? String == "COMMAND")
        let unknown = try HorizonsServer.get([("COMMAND", "499"), ("FOO", "1")])
        #expect(unknown.status == 400)
        #expect(unknown.json["parameter"] as? String == "FOO")
        let format = try HorizonsServer.get([("COMMAND", "499"), ("format", "xml")])
        #expect(format.status == 400)
        #expect(format.json["parameter"] as? String == "format")
    }

    @Test("Refusals in Horizons' words with 400: an empty TLIST (astroquery's recorded tlist_error), an unquoted value with a blank, a bad date")
    func horizonsErrors() throws {
        let tlist = try HorizonsServer.get([("format", "text"), ("COMMAND", "'499'"), ("OBJ_DATA", "'YES'"), ("MAKE_EPHEM", "'YES'"),
                                            ("EPHEM_TYPE", "'OBSERVER'"), ("CENTER", "'500@399'"), ("QUANTITIES", "'1,9,20,23,24,29'"), ("TLIST", "[]")])
        #expect(tlist.status == 400)
        #expect(tlist.bodyText.contains("BATVAR: no TLIST values found (or missing quotes)"))
        let blank = try HorizonsServer.get([("format", "text"), ("COMMAND", "'499'"), ("START_TIME", "2026-01-01"), ("STOP_TIME", "2026-01-02"), ("STEP_SIZE", "1 h")])
        #expect(blank.status == 400)
        #expect(blank.bodyText.contains("Too many constants"))
        let json = try HorizonsServer.get([("COMMAND", "'499'"), ("START_TIME", "'2026-Foo-01'"), ("STOP_TIME", "'2026-01-02'")])
        #expect(json.status == 400)
        #expect((json.json["error"] as? String)?.contains("Cannot interpret date") == true)
    }

    @Test("OBSERVER from an MPC observatory code (675, Palomar) and a small body by name: header names the site; constellation from the IAU boundaries")
    func observerFromSite() throws {
        let r = try HorizonsServer.get([("format", "text"), ("COMMAND", "'Ceres;'"), ("EPHEM_TYPE", "OBSERVER"), ("CENTER", "'675'"),
                                        ("QUANTITIES", "'1,4,9,20,29'"), ("START_TIME", "'2022-06-10'"), ("STOP_TIME", "'2022-06-11'"),
                                        ("STEP_SIZE", "'6 h'"), ("CSV_FORMAT", "YES"), ("ANG_FORMAT", "DEG")])
        #expect(r.status == 200)
        #expect(r.bodyText.contains("Palomar Mountain"))
        let rows = HorizonsServer.rows(r.bodyText)
        #expect(rows.count == 5)
        // Ceres was in Gemini then (Horizons' recorded answer says Gem).
        #expect(rows.allSatisfy { $0.contains("Gem") })
        let unknownSite = try HorizonsServer.get([("format", "text"), ("COMMAND", "'499'"), ("CENTER", "'XQ9'"), ("TLIST", "'2451544.5'")])
        #expect(unknownSite.status == 400)
    }

    @Test("A table past 2,000 rows is streamed, every row there; past Horizons' 90,024 rows it is refused in its words")
    func streamingAndLimit() throws {
        var pairs = Self.marsVectors
        pairs.removeLast(3)
        pairs += [("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-01-05'"), ("STEP_SIZE", "'1 m'")]
        let r = try HorizonsServer.get(pairs)
        #expect(r.status == 200)
        #expect(HorizonsServer.rows(r.bodyText).count == 4 * 1440 + 1)
        #expect(r.bodyText.hasSuffix("\n"))
        pairs.removeLast(3)
        pairs += [("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-12-31'"), ("STEP_SIZE", "'1 m'")]
        let long = try HorizonsServer.get(pairs)
        #expect(long.status == 400)
        #expect(long.bodyText.contains("exceeds 90024 line max"))
    }

    /// The states of one segment of an SPK file, as the project's SPK reader evaluates them.
    static func kernel(_ bytes: [UInt8]) throws -> SPKKernel {
        try SPKKernel(bytes: KernelBuffer(copying: bytes), file: "export.bsp")
    }

    @Test("GET /v1/kernels/export.bsp: Mars, Voyager 1 and Ceres read back within 1 m of the served states")
    func exportRoundTrip() throws {
        let r = try HorizonsServer.shared.get("/v1/kernels/export.bsp?bodies=mars,naif:-31,sb:1&center=ssb&start=2026-01-01&stop=2026-01-11")
        #expect(r.status == 200, "\(r.bodyText.prefix(300))")
        #expect(r.header("Content-Type") == "application/octet-stream")
        let k = try Self.kernel(r.body)
        #expect(Set(k.segments.map(\.target)).isSuperset(of: [499, -31]))
        let context = HorizonsServer.services
        let api = V1API(services: context)
        let c = api.horizonsContext
        var worst = 0.0, checked = 0
        for (i, seg) in k.segments.enumerated() {
            let body = try #require(seg.target == 499 ? c.majorBody(499) : seg.target == -31 ? c.majorBody(-31) : c.smallBodies.resolve("ceres").map { c.smallBody($0) })
            let ssb = try #require(c.majorBody(0))
            for f in stride(from: 0.0, through: 1.0, by: 0.037) {
                let s = seg.startSeconds + f * (seg.endSeconds - seg.startSeconds)
                let served = Precession.eclipticToEquatorialJ2000 * (body.stateKm(s).positionKm - ssb.stateKm(s).positionKm)
                worst = max(worst, (k.state(segment: i, secondsPastJ2000: s).positionKm - served).length)
                checked += 1
            }
        }
        print("export.bsp: \(k.segments.count) segments, \(r.body.count) bytes, worst \(worst * 1000) m over \(checked) instants")
        #expect(checked > 50)
        #expect(worst < 1e-3)
        let bad = try HorizonsServer.shared.get("/v1/kernels/export.bsp?bodies=mars&start=2026-01-02&stop=2026-01-01")
        #expect(bad.status == 400)
    }

    @Test("EPHEM_TYPE=SPK: Horizons' JSON with the file in base64, which reads back as an SPK kernel")
    func spkThroughHorizons() throws {
        let r = try HorizonsServer.get([("COMMAND", "'DES=99942;'"), ("EPHEM_TYPE", "SPK"), ("START_TIME", "'2029-04-01'"), ("STOP_TIME", "'2029-04-20'")])
        #expect(r.status == 200)
        let b64 = try #require(r.json["spk"] as? String)
        let bytes = try #require(Data(base64Encoded: b64))
        let k = try Self.kernel([UInt8](bytes))
        #expect(k.segments.first?.center == 10)
        #expect(r.json["spk_file_id"] as? String == "99942")
    }
}

@Suite("center=ssb in /v1")
struct BarycenterCenterTests {
    @Test("/v1/positions?center=ssb: the Sun's barycentric state added to every heliocentric one, from the DE kernel; the series agrees; not with the scene frame")
    func barycentric() throws {
        let helio = try APIServer.get("/v1/positions?date=2026-01-01&bodies=sun,mars,naif:-31")
        let bary = try APIServer.get("/v1/positions?date=2026-01-01&bodies=sun,mars,naif:-31&center=ssb")
        #expect(bary.status == 200)
        #expect(bary.json["center"] as? String == "ssb")
        #expect(bary.json["units"] as? String == "au")
        let h = helio.objects("bodies"), b = bary.objects("bodies")
        let sun = try #require(vector(b.first?["position"]))
        let t = try TimeScale.parse("2026-01-01T00:00:00Z")
        let k = APIServer.kernel.sunBarycentricState(secondsPastJ2000: t.daysSinceJ2000TDB * Constants.secondsPerDay)
        #expect((sun - k.positionKm / Constants.auKm).length * Constants.auKm < 1e-6)
        // The Sun is 0.002–0.01 AU from the barycentre: far above the 1e-12 AU the check needs.
        #expect(sun.length > 1e-3)
        for (x, y) in zip(h, b) {
            let p = try #require(vector(x["position"])), q = try #require(vector(y["position"]))
            #expect(((q - p) - sun).length < 1e-12)
        }
        let series = try APIServer.get("/v1/positions/mars?times=2026-01-01T00:00:00Z&center=ssb")
        let s = try #require((series.json["samples"] as? [[String: Any]])?.first)
        #expect(((try #require(vector(s["position"]))) - (try #require(vector(b[1]["position"])))).length < 1e-12)
        #expect(try APIServer.get("/v1/positions?date=2026-01-01&center=ssb&frame=scene").status == 400)
    }
}
