import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPTestSupport
import Scene
@testable import SolarSystemAPI
import MissionScene
import Testing

@Suite("GET /v1/views/system.{svg,ppm,png}")
struct ViewEndpointsTests {
    @Test("SVG: well-formed XML with a viewBox, every planet's label and the date caption")
    func svg() throws {
        let r = try APIServer.get("/v1/views/system.svg?date=2026-11-22&width=1280&height=720")
        #expect(r.status == 200)
        #expect(r.header("content-type")?.hasPrefix("image/svg+xml") == true)
        #expect(r.header("cache-control") == "public, max-age=31536000, immutable")
        let parser = XMLParser(data: Data(r.body))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let text = r.bodyText
        #expect(text.contains("viewBox=\"0 0 1280 720\""))
        for name in ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"] {
            #expect(text.contains(">\(name)<"), "\(name) label")
        }
        #expect(text.contains("2026-11-22"))
        #expect(!text.contains("href=\"http"))
    }

    @Test("an orbit camera inside a body is moved back along its line of sight to 5 % beyond the surface")
    func cameraMovedOutOfABody() throws {
        let services = APIServer.services
        let q = try ViewQuery.parse(date: "2026-11-22", width: "64", height: "48", focus: "earth", mission: nil, t: nil,
                                    azimuth: "0.3", elevation: "0.2", distance: "0.05", labels: nil, services: services)
        let earth = try #require(services.layout.bodies(services.ephemeris.snapshot(at: q.request.instant)).first { $0.id == .earth })
        guard case let .orbit(target, azimuth, elevation, distance?) = q.request.camera else { Issue.record("not an orbit camera"); return }
        #expect(target == .earth && azimuth == 0.3 && elevation == 0.2)
        #expect(abs(distance - earth.radius * 1.05) < 1e-12)
        // Outside every body already: unchanged.
        let far = try ViewQuery.parse(date: "2026-11-22", width: "64", height: "48", focus: "earth", mission: nil, t: nil,
                                      azimuth: "0.3", elevation: "0.2", distance: "3", labels: nil, services: services)
        #expect(far.request.camera == .orbit(target: .earth, azimuthRad: 0.3, elevationRad: 0.2, distance: 3))
        #expect(try APIServer.get("/v1/views/system.svg?date=2026-11-22&distance=5e-324&width=64&height=48").status == 200)
    }

    @Test("pan: the orbit camera around the Sun moved by Mars's scene position draws Mars's orbit camera; zero is no pan; bad values get 400 naming pan")
    func pan() throws {
        let scene = try APIServer.get("/v1/scene?date=2026-11-22")
        let mars = try #require(scene.objects("bodies").first { $0["id"] as? String == "mars" })
        let p = try #require(vector(mars["position"]))
        func circles(_ r: RawResponse) -> [String: String] {
            var out: [String: String] = [:]
            for m in r.bodyText.matches(of: /<circle id="body-([a-z0-9]+)" cx="([-0-9.]+)" cy="([-0-9.]+)"/) { out[String(m.1)] = "\(m.2),\(m.3)" }
            return out
        }
        let camera = "date=2026-11-22&width=800&height=450&azimuth=0.3&elevation=0.5&distance=20"
        let around = try APIServer.get("/v1/views/system.svg?\(camera)&focus=mars")
        let panned = try APIServer.get("/v1/views/system.svg?\(camera)&pan=\(p.x),\(p.y),\(p.z)")
        #expect(around.status == 200 && panned.status == 200)
        let a = circles(around), b = circles(panned)
        #expect(a.count >= 8 && a == b, "\(a.count) bodies around Mars, \(b.count) panned; differing: \(a.filter { b[$0.key] != $0.value }.keys.sorted())")
        #expect(a != circles(try APIServer.get("/v1/views/system.svg?\(camera)")), "without the pan the picture differs")
        let zero = try APIServer.get("/v1/views/system.svg?\(camera)&pan=0,-0,0e0")
        let none = try APIServer.get("/v1/views/system.svg?\(camera)")
        #expect(zero.body == none.body && zero.header("etag") == none.header("etag"))
        for bad in ["1,2", "1,2,3,4", "a,b,c", "1,,3", "10001,0,0", "0,0,-1e5", "nan,0,0", "0x1,0,0", ""] {
            let r = try APIServer.get("/v1/views/system.png?date=2026-11-22&pan=\(bad)")
            #expect(r.status == 400 && r.json["parameter"] as? String == "pan", "pan=\(bad): \(r.status) \(r.bodyText)")
        }
    }

    @Test("with mission, date decides over t; t without mission has no effect; any mission time is drawn")
    func missionTimeAndDate() throws {
        let dated = try APIServer.get("/v1/views/system.svg?mission=apollo11&t=5&date=1969-07-20T20:17:00Z&width=200&height=100")
        #expect(dated.status == 200 && dated.bodyText.contains("1969-07-20 20:17"))
        #expect(dated.bodyText.contains("Columbia"), "the mission is drawn")
        let plain = try APIServer.get("/v1/views/system.svg?t=5&date=2026-01-01&width=200&height=100")
        let same = try APIServer.get("/v1/views/system.svg?date=2026-01-01&width=200&height=100")
        #expect(plain.status == 200 && plain.bodyText == same.bodyText)
        #expect(try APIServer.get("/v1/views/system.svg?mission=apollo11&t=500&width=64&height=48").status == 200)
    }

    @Test("PNG: signature, IHDR at the requested size; PPM: exact header and byte count")
    func raster() throws {
        let png = try APIServer.get("/v1/views/system.png?date=2026-11-22&focus=saturn&width=320&height=200")
        #expect(png.status == 200 && png.header("content-type") == "image/png")
        let b = png.body
        #expect(Array(b.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: b[12..<16], as: UTF8.self) == "IHDR")
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        #expect(be32(16) == 320 && be32(20) == 200)
        #expect(String(decoding: b.suffix(8).prefix(4), as: UTF8.self) == "IEND")
        let ppm = try APIServer.get("/v1/views/system.ppm?date=2026-11-22&width=64&height=48")
        let header = Array("P6\n64 48\n255\n".utf8)
        #expect(Array(ppm.body.prefix(header.count)) == header)
        #expect(ppm.body.count == header.count + 64 * 48 * 3)
    }

    @Test("a mission view: Apollo 11 at T+76 h carries its trajectory and vehicle labels; cached answers are identical")
    func mission() throws {
        let r = try APIServer.get("/v1/views/system.svg?mission=apollo11&t=76")
        #expect(r.status == 200)
        #expect(r.bodyText.contains("Columbia"))
        #expect(r.bodyText.contains("1969-07-19"))
        let again = try APIServer.get("/v1/views/system.svg?mission=apollo11&t=76")
        #expect(again.body == r.body && again.header("etag") == r.header("etag"))
    }

    @Test("Artemis II near the Moon: the overview names the Moon beside the event labels, the Moon close-up marks Orion", arguments: [118.0, 120, 122, 124])
    func artemisMoon(t: Double) throws {
        let overview = try APIServer.get("/v1/views/system.svg?mission=artemis2&t=\(t)&width=800&height=600").bodyText
        #expect(overview.contains(">Moon</text>"), "T+\(t) h overview")
        let close = try APIServer.get("/v1/views/system.svg?mission=artemis2&t=\(t)&focus=moon&width=800&height=600").bodyText
        #expect(close.contains("class=\"marker\""), "T+\(t) h close-up: no Orion marker")
        // The raster draws the same markers (RayCaster.drawMarker); here only that it renders.
        #expect(try APIServer.get("/v1/views/system.png?mission=artemis2&t=\(t)&focus=moon&width=320&height=240").status == 200)
    }

    @Test("a Mars orbiter in a picture focused on Mars: the revolution it flew, round the planet, and no chord of daily samples across it",
          arguments: ["mro", "maven", "marsodyssey"])
    func marsOrbiterRevolution(mission: String) throws {
        let svg = try APIServer.get("/v1/views/system.svg?mission=\(mission)&date=2016-03-10T22:00:00Z&focus=mars&width=800&height=600").bodyText
        let disc = try #require(svg.firstMatch(of: /<circle id="body-mars" cx="([-0-9.]+)" cy="([-0-9.]+)" r="([0-9.]+)"/))
        let (cx, cy, r) = (Double(disc.1)!, Double(disc.2)!, Double(disc.3)!)
        let lines = svg.matches(of: /<polyline points="([^"]*)"/).map { m in
            m.1.split(separator: " ").map { p in let xy = p.split(separator: ","); return (x: Double(xy[0])!, y: Double(xy[1])!) }
        }
        func fromCenter(_ p: (x: Double, y: Double)) -> Double { ((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy)).squareRoot() }
        // The revolution: as many points as MissionScene draws, all near the planet (MRO's and
        // Odyssey's 300 km are a few per cent of its drawn radius, MAVEN's 6,200 km apoapsis
        // 2.3 radii), from and back to the vehicle (one osculating period).
        let revolution = try #require(lines.first { $0.count == MissionScene.revolutionPoints }, "\(mission): no revolution drawn")
        #expect(revolution.allSatisfy { fromCenter($0) < 2.5 * r }, "\(mission)")
        #expect(revolution.contains { fromCenter($0) > 0.9 * r }, "\(mission)")
        let ends = (revolution[0].x - revolution[revolution.count - 1].x, revolution[0].y - revolution[revolution.count - 1].y)
        #expect((ends.0 * ends.0 + ends.1 * ends.1).squareRoot() < 0.1 * r, "\(mission): the revolution does not close")
        // No segment of any line cuts across the disc's middle (the chords between daily samples did).
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                let mid = ((a.x + b.x) / 2, (a.y + b.y) / 2)
                let long = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() > 0.5 * r
                #expect(!(long && fromCenter(mid) < 0.8 * r), "\(mission): a chord across Mars")
            }
        }
    }

    @Test("two large rasters asked at once are rendered one at a time, while a small one is not held up")
    func largeRendersQueue() async throws {
        // Enough workers that the heavy lane could run both at once: only the gate serialises them.
        let server = try TestServer(configure: { $0.workerPoolSize = 4 }) { V1API(services: APIServer.services).register(on: $0) }
        defer { server.stop() }
        let gate = APIServer.services.largeRenders
        let peakBefore = gate.peak
        let sizes = [(2050, 2049), (2049, 2050)]
        // A 4-megapixel render in a debug build on a loaded 2-core machine can take longer than
        // the default 10 s receive timeout: these wait as long as it takes.
        let results = try await withThrowingTaskGroup(of: (large: Bool, status: Int).self) { g in
            for (w, h) in sizes {
                g.addTask {
                    (true, try RawClient.get(port: server.port, "/v1/views/system.ppm?date=2026-11-22&width=\(w)&height=\(h)&labels=none",
                                             receiveTimeout: 600).status)
                }
            }
            g.addTask { (false, try RawClient.get(port: server.port, "/v1/views/system.png?date=2026-11-23&width=64&height=64&labels=none", receiveTimeout: 600).status) }
            var out: [(large: Bool, status: Int)] = []
            for try await r in g { out.append(r) }
            return out
        }
        // The first large render is served; the second waits for the gate and is served after it,
        // or, if the first took longer than the gate's 10 s, answered 503 with Retry-After (its
        // documented answer) — which of the two depends on the machine's speed, so both pass.
        let large = results.filter(\.large).map(\.status).sorted()
        #expect(large == [200, 200] || large == [200, 503], "\(large)")
        #expect(results.filter { !$0.large }.map(\.status) == [200])
        #expect(gate.peak == 1 && peakBefore <= 1, "large renders in progress at once: \(gate.peak)")
        #expect(gate.active == 0)

        // A small render is not held up behind a large one: with the gate held (a large render
        // in progress, here for as long as the test wants), a small picture still completes.
        // Were it queued at the gate it would wait the gate's 10 s and answer 503.
        let (small, heldMeanwhile) = try Self.renderSmallWhileHeld(gate, server)
        #expect(small.status == 200, "\(small.bodyText)")
        #expect(heldMeanwhile == 1, "the gate was free while the small picture rendered")
        #expect(TestServer.eventually(timeout: 10) { gate.active == 0 })
    }

    /// Holds `gate` on another thread while a small picture is asked for; the answer and how many
    /// large renders were in progress when it came.
    static func renderSmallWhileHeld(_ gate: RenderGate, _ server: TestServer) throws -> (RawResponse, Int) {
        let entered = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = gate.run(timeout: 60) {
                entered.signal()
                release.wait()
            }
        }
        entered.wait()
        defer { release.signal() }
        // A generous receive timeout: held at the gate it would answer 503 after 10 s, not time out.
        let small = try RawClient.get(port: server.port, "/v1/views/system.png?date=2026-11-24T01:02:03Z&width=64&height=64&labels=none",
                                      receiveTimeout: 600)
        return (small, gate.active)
    }

    @Test("bad views are 400 problems with the reason; unknown mission 404", arguments: [
        ("width=8", "width", 400), ("height=5000", "height", 400), ("width=abc", "width", 400), ("focus=vulcan", "focus", 400),
        ("mission=apollo11&t=1378691", "t", 400), ("mission=apollo11&t=abc", "t", 400), ("t=-1378691", "t", 400),
        ("mission=voyager1&date=2999-12-31", "date", 400),
        ("elevation=2", "elevation", 400), ("distance=-1", "distance", 400), ("labels=planets,comets", "labels", 400),
        ("distance=0", "distance", 400), ("mission=apollo12", "mission", 404), ("zoom=2", "zoom", 400),
    ])
    func badViews(query: String, parameter: String, status: Int) throws {
        let r = try APIServer.get("/v1/views/system.png?date=2026-11-22&\(query)".replacingOccurrences(of: "date=2026-11-22&mission", with: "mission"))
        #expect(r.status == status, "\(query): \(r.bodyText)")
        #expect(r.json["parameter"] as? String == parameter, "\(query): \(r.bodyText)")
    }
}
