import Ephemeris
import Foundation
import HTTPCore
import HTTPTestSupport
import Logging
import Missions
@testable import SolarSystemAPI
import Testing

/// DE440 through the API: the issue's bounds end to end, both frames, which theory answered,
/// the answers counted by theory, and the kernel's start-up checks in the real executable.
@Suite("DE440 through the API")
struct EphemerisKernelAPITests {
    /// Every reference case from 1972 on (before, UTC input is UT and the ΔT models differ).
    static let cases = ReferenceCases.all.filter { $0.jdUTC >= 2_441_317.5 }

    static let planets = ["mercury", "venus", "earth", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"]

    @Test("planets within 1 km of DE440 in both frames; the Moon within 10 m", arguments: ["ecliptic-j2000", "equatorial-j2000"])
    func reference(frame: String) throws {
        #expect(Self.cases.count == 42) // the fixture's cases since 1972
        let toFrame = frame == "equatorial-j2000" ? Precession.eclipticToEquatorialJ2000 : Matrix3.identity
        var worstKm = 0.0, worstMoonM = 0.0, planetsChecked = 0, moonsChecked = 0
        for c in Self.cases {
            let r = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=\(Self.planets.joined(separator: ","))&frame=\(frame)&units=km")
            #expect(r.status == 200)
            for b in r.objects("bodies") {
                guard let id = b["id"] as? String, let p = vector(b["position"]), let truth = c.heliocentric[id] else { continue }
                planetsChecked += 1
                let d = (p - toFrame * truth * Constants.auKm).length
                worstKm = max(worstKm, d)
                #expect(d <= 1, "\(id) at \(c.utc) (\(frame)): \(d) km")
                #expect(b["theory"] as? String == "DE440")
            }
            let moon = try APIServer.get("/v1/positions?date=\(c.utc)&bodies=moon&center=earth&units=km&frame=\(frame)").objects("bodies")[0]
            guard let m = vector(moon["position"]) else { Issue.record("moon"); continue }
            worstMoonM = max(worstMoonM, (m - toFrame * c.moonKm).length * 1000)
            moonsChecked += 1
        }
        // Nothing skipped: every planet and the Moon at every case.
        #expect(planetsChecked == Self.cases.count * Self.planets.count && moonsChecked == Self.cases.count,
                "\(planetsChecked) planets, \(moonsChecked) Moons checked")
        #expect(worstMoonM <= 10, "Moon: \(worstMoonM) m")
        print(String(format: "[api] %@: planets within %.4f km, the Moon within %.3f m of DE440 (%d cases, 1972 on)", frame, worstKm, worstMoonM, Self.cases.count))
    }

    @Test("each body names its theory and the span it serves for the date asked")
    func theoryPerBody() throws {
        let span = APIServer.kernel.spanJDTDB
        let now = try APIServer.get("/v1/positions?date=2026-11-22").objects("bodies")
        #expect(now.count == 25)
        for b in now {
            guard let id = b["id"] as? String, let theory = b["theory"] as? String, let valid = b["validJdTDB"] as? [Double] else {
                Issue.record("\(b)"); continue
            }
            #expect(valid.count == 2 && valid[0] <= 2_461_366.5 && valid[1] >= 2_461_366.5, "\(id)")
            if ["sun", "mercury", "venus", "earth", "moon", "mars", "jupiter", "saturn", "uranus", "neptune", "pluto"].contains(id) {
                #expect(theory == "DE440" && valid == [span.lowerBound, span.upperBound], "\(id): \(theory)")
            } else {
                #expect(theory.hasSuffix(" + DE440"), "\(id): \(theory)")
            }
        }
        let later = try APIServer.get("/v1/positions?date=2150-01-01&bodies=mars,pluto,moon,io").objects("bodies")
        #expect(later.map { $0["theory"] as? String } == ["VSOP87A", "Standish 1992", "Meeus ch. 47", "Lieske E5 + VSOP87A"])
        #expect((later[0]["validJdTDB"] as? [Double])?.first == span.upperBound)
        let scene = try APIServer.get("/v1/positions?date=2026-11-22&frame=scene&bodies=saturn").objects("bodies")
        #expect(scene.first?["theory"] as? String == "DE440")
    }

    @Test("/v1/bodies lists each body's theories with their spans")
    func bodies() throws {
        let mars = try APIServer.get("/v1/bodies/mars").json
        let eph = mars["ephemeris"] as? [String: Any]
        let spans = eph?["theories"] as? [[String: Any]] ?? []
        #expect(spans.map { $0["theory"] as? String } == ["Standish 1992", "VSOP87A", "DE440", "VSOP87A", "Standish 1992"])
        #expect((eph?["theory"] as? String)?.contains("DE440") == true)
        let io = try APIServer.get("/v1/bodies/io").json["ephemeris"] as? [String: Any]
        #expect((io?["theories"] as? [[String: Any]])?.contains { $0["theory"] as? String == "Lieske E5 + DE440" } == true)
    }

    @Test("a series across the kernel's end names both theories")
    func seriesModel() throws {
        let r = try APIServer.get("/v1/positions/mars?start=2099-12-01&stop=2100-02-01&step=1d")
        #expect(r.status == 200)
        let model = r.json["model"] as? String ?? ""
        #expect(model.contains("DE440") && model.contains("VSOP87A"), "\(model)")
    }

    @Test("answers are counted by theory and served on /metrics")
    func metrics() throws {
        let services = try APIServices(catalogue: APIServer.services.catalogue, kernel: APIServer.kernel, stars: APIServer.services.stars,
                                       missions: APIServer.services.missions, bodies: APIServer.bodies, openAPIDocument: [], clock: { APIServer.pinnedNow })
        let registry = MetricsRegistry()
        V1API(services: services).registerMetrics(on: registry)
        let q = try PositionsQuery.parse(date: "2026-11-22", bodies: "mars,io", frame: nil, center: nil, units: nil, now: { 0 })
        _ = try services.engine.positions(q)
        _ = try services.engine.positions(try PositionsQuery.parse(date: "2200-01-01", bodies: "mars", frame: nil, center: nil, units: nil, now: { 0 }))
        #expect(services.engine.answers.current == ["DE440": 1, "Lieske E5 + DE440": 1, "VSOP87A": 1])
        let text = String(decoding: registry.render(), as: UTF8.self)
        #expect(text.contains(#"solarsystem_ephemeris_answers_total{theory="DE440"} 1"#), "\(text)")
        #expect(text.contains(#"solarsystem_ephemeris_answers_total{theory="VSOP87A"} 1"#))
    }
}

/// The kernel in the real executable: start-up line, `--ephemeris`, and files it must refuse.
@Suite("solarsystem with an ephemeris kernel")
struct EphemerisKernelProcessTests {
    static func temporaryFile(_ bytes: [UInt8], name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("the start-up line names the kernel, its span, its size and its CRC-32")
    func startupLine() throws {
        let (p, out) = try ProcessLifecycleTests.start(["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--log-format", "json"], environment: [:])
        defer { if p.isRunning { p.terminate(); ProcessLifecycleTests.waitForExit(p) } }
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !text.contains("\"listening\"") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let line = text.split(separator: "\n").first { $0.contains("\"listening\"") }.map(String.init) ?? text
        #expect(line.contains(#""ephemeris":"DE440""#), "\(line)")
        #expect(line.contains("de440-1900-2100.bsp"))
        #expect(line.contains("1899-12-28..2100-01-04 TDB"))
        #expect(line.contains(#""ephemerisCRC32":"9e89eb18""#))
        #expect(line.contains(#""ephemerisBytes":"21776384""#) || line.contains(#""ephemerisBytes":21776384"#))
    }

    @Test("a missing, truncated or foreign file stops start-up with a message naming it")
    func refusedFiles() throws {
        let kernel = RepositoryFiles.bytes("Resources/de440-1900-2100.bsp")
        let truncated = try Self.temporaryFile(Array(kernel.prefix(500_000)), name: "cut.bsp")
        let foreign = try Self.temporaryFile(RepositoryFiles.bytes("Resources/bodies.json"), name: "bodies.bsp")
        defer { try? FileManager.default.removeItem(at: truncated); try? FileManager.default.removeItem(at: foreign) }
        let cases: [([String], [String: String], [String])] = [
            (["serve", "--db", ":memory:", "--ephemeris", "/nonexistent/de440.bsp"], [:], ["/nonexistent/de440.bsp", "cannot open", "--ephemeris"]),
            (["serve", "--db", ":memory:"], ["SOLARSYSTEM_EPHEMERIS": truncated.path], [truncated.path, "cut short", "SOLARSYSTEM_EPHEMERIS"]),
            (["positions", "--date", "2026-01-01", "--ephemeris", foreign.path], [:], [foreign.path, "not a NAIF DAF"]),
        ]
        for (args, env, words) in cases {
            let (status, output) = try ConfigurationTests.run(args, environment: env)
            #expect(status != 0, "\(args)")
            for w in words { #expect(output.contains(w), "\(args): \(output)") }
            #expect(!output.contains("Fatal error") && !output.contains("Stack dump"))
        }
    }

    @Test("--ephemeris none serves the analytical theories; the CLI otherwise answers with DE440")
    func none() throws {
        let (s1, analytical) = try ConfigurationTests.run(["positions", "--date", "2026-01-01", "--bodies", "mars", "--ephemeris", "none"])
        #expect(s1 == 0 && analytical.contains(#""theory":"VSOP87A""#), "\(analytical)")
        let (s2, de) = try ConfigurationTests.run(["positions", "--date", "2026-01-01", "--bodies", "mars"])
        #expect(s2 == 0 && de.contains(#""theory":"DE440""#), "\(de)")
    }
}
