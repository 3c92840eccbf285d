import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OpenAPIRuntime
import SolarSystemClient
import Testing

/// Every operation of openapi.yaml, called through the generated client against a live release
/// server: each answer must decode into the typed `.ok` response (so the spec and the server
/// cannot drift apart), and a few values are checked.
@Suite("Every operation against a live server", .serialized)
struct OperationTests {
    let client: Client

    init() throws { client = try LiveServer.client }

    private func text(_ body: HTTPBody, upTo limit: Int = 16 << 20) async throws -> String {
        try await String(collecting: body, upTo: limit)
    }

    private func bytes(_ body: HTTPBody, upTo limit: Int = 16 << 20) async throws -> [UInt8] {
        try await [UInt8](collecting: body, upTo: limit)
    }

    // MARK: Operations

    @Test func getHealth() async throws {
        #expect(try await client.getHealth().ok.body.json.status == .ok)
    }

    @Test func getReadiness() async throws {
        let checks = try await client.getReadiness().ok.body.json.checks
        #expect(checks.catalogue && checks.missions && !checks.shuttingDown)
    }

    @Test func getMetrics() async throws {
        let metrics = try await text(client.getMetrics().ok.body.plainText)
        #expect(metrics.contains("http_requests_total"))
    }

    @Test func getOpenAPIDocument() async throws {
        let spec = try await text(client.getOpenAPIDocument().ok.body.yaml)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../openapi.yaml").standardized
        #expect(spec == (try String(contentsOf: here, encoding: .utf8)), "the server serves the spec the client was generated from")
    }

    @Test func getViewer() async throws {
        _ = try await client.getViewer().ok
    }

    @Test func getViewerIndex() async throws {
        _ = try await client.getViewerIndex().ok
    }

    @Test func getViewerModule() async throws {
        let js = try await text(client.getViewerModule(path: .init(module: "main.js")).ok.body.textJavascript)
        #expect(js.contains("import"))
    }

    @Test func getViewerStyles() async throws {
        #expect(try await text(client.getViewerStyles().ok.body.textCss).contains("{"))
    }

    @Test func getViewerIcon() async throws {
        #expect(try await text(client.getViewerIcon().ok.body.imageSvgXml).contains("<svg"))
    }

    @Test func listBodies() async throws {
        guard case .BodyList(let list) = try await client.listBodies().ok.body.json else { Issue.record("not the catalogue"); return }
        let bodies = list.bodies
        #expect(bodies.count == 25)
        let sun = try #require(bodies.first { $0.id == "sun" })
        guard case .case2 = sun.parent else { Issue.record("the Sun's parent is null: \(sun.parent)"); return }
        let moon = try #require(bodies.first { $0.id == "moon" })
        #expect(moon.parent == .BodyId("earth"))
        #expect(bodies.first { $0.id == "saturn" }.map { if case .Rings = $0.rings { true } else { false } } == true)
    }

    @Test func getBody() async throws {
        guard case .Body(let mars) = try await client.getBody(path: .init(id: "mars")).ok.body.json else { Issue.record("not a body"); return }
        #expect(mars.name == "Mars" && mars.moons == ["phobos", "deimos"])
        #expect(abs(mars.radiusKm - 3389.5) < 1)
        guard case .SmallBody(let apophis) = try await client.getBody(path: .init(id: "sb:99942")).ok.body.json else { Issue.record("not a small body"); return }
        #expect(apophis.value1.fullName == "99942 Apophis (2004 MN4)" && apophis.value1.nameSlug == "apophis")
        guard case .SmallBodyList(let found) = try await client.listBodies(query: .init(kind: .comet)).ok.body.json else { Issue.record("not a search"); return }
        #expect(found.total == 4 && found.bodies.contains { $0.id == "sb:67p" })
    }

    @Test func getCloseApproaches() async throws {
        let answer = try await client.getCloseApproaches(query: .init(body: "sb:99942", center: .earth, start: "2029-01-01", stop: "2030-01-01", maxDistanceAU: 0.01)).ok.body.json
        #expect(answer.count == 1)
        let approach = try #require(answer.approaches.first)
        #expect(approach.dateTDB.hasPrefix("2029-04-13T21:46") && abs(approach.distanceAU - 0.000252173) < 0.000001)
    }

    @Test func getHorizons() async throws {
        let text = try await text(client.getHorizons(query: .init(format: .text, command: "'499'", ephemType: "VECTORS", center: "'500@10'",
                                                                   startTime: "'2026-01-01'", stopTime: "'2026-01-02'", stepSize: "'1 d'")).ok.body.plainText)
        #expect(text.hasPrefix("API VERSION: 1.2") && text.contains("$$SOE") && text.contains("Mars (499)"))
        let json = try await client.getHorizons(query: .init(command: "'499'", ephemType: "VECTORS", center: "'500@10'", tlist: "'2461041.5'")).ok.body.json
        #expect(json.signature.source == "NASA/JPL Horizons API" && json.result?.contains("$$SOE") == true)
    }

    @Test func postHorizons() async throws {
        let form = Operations.PostHorizons.Input.Body.UrlEncodedFormPayload(format: .json, command: "'499'", additionalProperties: ["TLIST": "'2461041.5'"])
        let json = try await client.postHorizons(body: .urlEncodedForm(form)).ok.body.json
        #expect(json.result?.contains("Mars (499)") == true)
    }

    @Test func exportKernel() async throws {
        let spk = try await bytes(client.exportKernel(query: .init(bodies: "mars", center: "sun", start: "2026-01-01", stop: "2026-01-11")).ok.body.binary)
        #expect(spk.starts(with: Array("DAF/SPK".utf8)))
    }

    @Test func getPositions() async throws {
        let answer = try await client.getPositions(query: .init(date: "2026-01-01", bodies: "earth,naif:-32")).ok.body.json
        #expect(answer.value1.date == "2026-01-01T00:00:00Z")
        let earth = try #require(answer.value3.bodies.first { $0.value1.id == "earth" })
        #expect(abs(earth.value2.distance - 0.9833) < 0.001)
        #expect(answer.value3.bodies.contains { $0.value1.id == "naif:-32" })
    }

    @Test func getPositionSeries() async throws {
        let series = try await client.getPositionSeries(path: .init(id: "moon"), query: .init(start: "2026-01-01", stop: "2026-01-03", step: "1d", center: "earth")).ok.body.json
        #expect(series.value2.count == 3 && series.value2.samples.count == 3)
        #expect(series.value2.samples.allSatisfy { $0.value2.distance > 356_000 && $0.value2.distance < 407_000 })
    }

    @Test func getRotations() async throws {
        let rotations = try await client.getRotations(query: .init(date: "2026-01-01", bodies: "earth,mars")).ok.body.json
        #expect(rotations.value2.bodies.count == 2)
    }

    @Test func getScene() async throws {
        let scene = try await client.getScene(query: .init(date: "2026-01-01")).ok.body.json
        #expect(scene.value2.bodies.count == 25)
        #expect(scene.value2.bodies.contains { if case .case2 = $0.parent { $0.id == "sun" } else { false } })
    }

    @Test func getOrbits() async throws {
        let orbits = try await client.getOrbits(query: .init(date: "2026-01-01", bodies: "mars", samples: 64)).ok.body.json
        #expect(orbits.value2.bodies.first?.points.count == 64 && orbits.value2.samples == 64)
    }

    @Test func getStars() async throws {
        let stars = try await client.getStars(query: .init(maxMagnitude: 1)).ok.body.json
        #expect(stars.stars.first?.name == "Sirius" && stars.count == stars.stars.count)
    }

    @Test func getSky() async throws {
        let now = try await client.getSky(query: .init(lat: 48.8566, lon: 2.3522, date: "2026-11-22T20:00:00Z", bodies: "moon,mars,iss")).ok.body.json
        guard case .SkyView = now else { Issue.record("one instant answered \(now)"); return }
        let table = try await client.getSky(query: .init(lat: 48.8566, lon: 2.3522, bodies: "sun", start: "2026-11-22", stop: "2026-11-23", step: "6h")).ok.body.json
        guard case .SkyTable = table else { Issue.record("a table answered \(table)"); return }
        let seen = try await client.getSky(query: .init(lat: 48.8566, lon: 2.3522, date: "2026-11-22T20:00:00Z", bodies: "saturn", quantities: "all")).ok.body.json
        guard case let .SkyView(view) = seen else { Issue.record("one instant answered \(seen)"); return }
        let q = view.value2.bodies.first?.quantities
        #expect(q?.constellation != nil && q?.magnitude != nil && q?.observerSubLatitudeDeg != nil)
    }

    @Test func getSkyEvents() async throws {
        let events = try await client.getSkyEvents(query: .init(lat: 51.5074, lon: -0.1278, start: "2027-01-01", stop: "2027-01-03", bodies: "sun,moon,iss")).ok.body.json
        #expect(!events.deltaTSeconds.isEmpty && !events.deltaTSource.isEmpty)
        let seen = try await client.getSkyEvents(query: .init(lat: 48.8566, lon: 2.3522, start: "2026-03-01", stop: "2026-09-30", kinds: "solar-eclipse,lunar-eclipse,occultation")).ok.body.json
        #expect(seen.events.contains { $0.occultation != nil } && seen.events.contains { $0.eclipse != nil })
    }

    @Test func getMoonPhases() async throws {
        _ = try await client.getMoonPhases(query: .init(start: "2027-01-01", stop: "2027-02-01")).ok.body.json
        _ = try await client.getMoonPhases(query: .init(date: "2027-01-01")).ok.body.json
    }

    @Test func getMoonApsides() async throws {
        let apsides = try await client.getMoonApsides(query: .init(start: "2027-01-01", stop: "2027-02-01")).ok.body.json
        #expect(apsides.count >= 2 && !apsides.truncated)
    }

    @Test func getSeasons() async throws {
        let seasons = try await client.getSeasons(query: .init(year: 2027)).ok.body.json
        #expect(seasons.year == 2027 && seasons.events.count == 6)
    }

    @Test func listEclipses() async throws {
        let list = try await client.listEclipses(query: .init(kind: .solar, start: "2024-01-01", stop: "2025-01-01")).ok.body.json
        #expect(list.count == 2 && list.eclipses.count == 2)
        let csv = try await client.listEclipses(query: .init(kind: .lunar, start: "2025-01-01", stop: "2026-01-01", format: .csv)).ok.body.csv
        #expect(try await text(csv).hasPrefix("id,kind,type"))
    }

    @Test func getEclipse() async throws {
        _ = try await client.getEclipse(path: .init(id: "2027-08-02-solar")).ok.body.json
        _ = try await client.getEclipse(path: .init(id: "2025-09-07-lunar"), query: .init(shadow: .danjon)).ok.body.json
    }

    @Test func getEclipsePath() async throws {
        let path = try await client.getEclipsePath(path: .init(id: "2024-04-08-solar")).ok.body.applicationGeoJson
        #expect(path.features.count >= 5)
    }

    @Test func listLocalEclipses() async throws {
        let dallas = try await client.listLocalEclipses(query: .init(lat: 32.7767, lon: -96.797, start: "2024-01-01", stop: "2025-01-01")).ok.body.json
        #expect(dallas.count == 1)
        _ = try await client.listLocalEclipses(query: .init(lat: 48.8566, lon: 2.3522, kind: .lunar, start: "2025-01-01", stop: "2026-01-01")).ok.body.json
    }

    @Test func listTransits() async throws {
        let transits = try await client.listTransits(query: .init(body: .mercury, start: "2019-01-01", stop: "2020-01-01", lat: 40.7, lon: -74)).ok.body.json
        #expect(transits.count == 1)
    }

    @Test func getEclipseMapSVG() async throws {
        #expect(try await text(client.getEclipseMapSVG(query: .init(id: "2027-08-02-solar", width: 512)).ok.body.imageSvgXml).contains("<svg"))
    }

    @Test func getEclipseMapPNG() async throws {
        let png = try await bytes(client.getEclipseMapPNG(query: .init(id: "2027-08-02-solar", width: 256)).ok.body.png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func getCameraFocus() async throws {
        let focus = try await client.getCameraFocus(path: .init(id: "jupiter"), query: .init(date: "2026-01-01")).ok.body.json
        #expect(focus.value2.id == "jupiter")
    }

    @Test func listMissions() async throws {
        let missions = try await client.listMissions().ok.body.json.missions
        #expect(missions.contains { $0.id == "apollo11" } && missions.count >= 13)
        #expect(missions.contains { if case .case2 = $0.end { $0.ongoing } else { false } }, "a mission that flies on has end: null")
    }

    @Test func getMission() async throws {
        let mission = try await client.getMission(path: .init(id: "voyager1")).ok.body.json
        #expect(mission.ongoing && mission.referenceFrame == .heliocentric)
        guard case .case2 = mission.end else { Issue.record("Voyager 1 flies on: end is null"); return }
    }

    @Test func getMissionTrajectory() async throws {
        let trajectory = try await client.getMissionTrajectory(path: .init(id: "apollo11"), query: .init(samples: 64)).ok.body.json
        #expect(trajectory.mission == "apollo11" && trajectory.referenceFrame == .geocentric)
        #expect(trajectory.vehicles.contains { $0.id == "lm_eagle" })
    }

    @Test func getMissionTelemetry() async throws {
        let frame = try await client.getMissionTelemetry(path: .init(id: "apollo11"), query: .init(t: 100)).ok.body.json
        #expect(frame.t == 100 && frame.met == "T+04:04:00:00")
        #expect(frame.vehicles.contains { $0.id == "csm_columbia" })
    }

    @Test func getMissionRevolution() async throws {
        let r = try await client.getMissionRevolution(path: .init(id: "mro"), query: .init(date: "2015-01-01T00:00:00Z")).ok.body.json
        #expect(r.vehicle == "mro" && r.body == "mars" && r.positions.count == 121)
    }

    @Test func getMissionEvents() async throws {
        let range = try await client.getMissionEvents(path: .init(id: "apollo11")).ok.body.json
        guard case .MissionEventRange(let all) = range else { Issue.record("\(range)"); return }
        #expect(all.events.contains { $0.key == "landing" })
        let status = try await client.getMissionEvents(path: .init(id: "apollo11"), query: .init(at: 1_000_000)).ok.body.json
        guard case .MissionEventStatus(let after) = status else { Issue.record("\(status)"); return }
        guard case .case2 = after.nextEvent else { Issue.record("past the last event nextEvent is null"); return }
    }

    @Test func getMissionFraming() async throws {
        let framing = try await client.getMissionFraming(path: .init(id: "apollo11"), query: .init(t: 100)).ok.body.json
        let overview = try await client.getMissionFraming(path: .init(id: "voyager2"), query: .init(t: 0)).ok.body.json
        #expect(framing != overview)
    }

    @Test func streamMission() async throws {
        let body = try await client.streamMission(path: .init(id: "apollo11"), query: .init(speed: 100_000_000)).ok.body.textEventStream
        var telemetry = 0, missionEvents = 0
        var end: Components.Schemas.StreamEnd?
        var ids: [String] = []
        for try await event in body.missionStreamEvents() {
            if let id = event.id { ids.append(id) }
            switch event {
            case .telemetry(let frame, _): telemetry += 1; #expect(frame.mission == "apollo11")
            case .missionEvent(let e, _): missionEvents += 1; #expect(!e.name.isEmpty)
            case .end(let e, _): end = e
            }
        }
        #expect(telemetry > 0 && missionEvents > 5)
        #expect(end?.reason == .completed)
        // Ids are MET milliseconds with an optional `.n`, strictly increasing.
        let keys = ids.map { id -> [Int] in id.split(separator: ".").compactMap { Int($0) } + (id.contains(".") ? [] : [0]) }
        #expect(keys.allSatisfy { $0.count == 2 } && zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
        let resumed = try await client.streamMission(path: .init(id: "apollo11"), headers: .init(lastEventID: ids.last))
        guard case .noContent = resumed else { Issue.record("a resume at the end gets 204: \(resumed)"); return }
    }

    @Test func getViewSVG() async throws {
        #expect(try await text(client.getViewSVG(query: .init(date: "2026-01-01", width: 320, height: 200)).ok.body.imageSvgXml).contains("<svg"))
    }

    @Test func getViewPPM() async throws {
        let ppm = try await bytes(client.getViewPPM(query: .init(date: "2026-01-01", width: 32, height: 20)).ok.body.imageXPortablePixmap)
        #expect(ppm.starts(with: Array("P6\n32 20\n".utf8)))
    }

    @Test func getViewPNG() async throws {
        let png = try await bytes(client.getViewPNG(query: .init(date: "2026-01-01", width: 32, height: 20)).ok.body.png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func getTexture() async throws {
        let png = try await bytes(client.getTexture(path: .init(id: .earth)).ok.body.png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    // MARK: Errors and negotiation, as the generated client sees them

    @Test("a series and the stars come as JSON to the generated client's Accept, CSV on request")
    func negotiation() async throws {
        let stars = try await client.getStars(query: .init(maxMagnitude: 0)).ok.body
        #expect(try stars.json.count > 0)
        let csv = try await client.getStars(query: .init(maxMagnitude: 0, format: .csv)).ok.body.csv
        #expect(try await text(csv).hasPrefix("name,ra_hours,dec_deg"))
    }

    @Test("an unknown id is a typed 404 problem; a mission id added later decodes as a string")
    func unknownIds() async throws {
        let answer = try await client.getBody(path: .init(id: "vulcan"))
        guard case .notFound(let notFound) = answer else { Issue.record("\(answer)"); return }
        let problem = try notFound.body.applicationProblemJson
        #expect(problem.status == 404 && problem.validIds?.contains("mars") == true)
        // Today's mission list with one id no release has yet: a client generated now must
        // still decode it (ids are open strings, not closed enums).
        var request = URLRequest(url: try LiveServer.url.get().appendingPathComponent("v1/missions"))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, _) = try await URLSession.shared.data(for: request)
        let renamed = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"apollo11\"", with: "\"europaclipper\"")
        let list = try JSONDecoder().decode(Components.Schemas.MissionList.self, from: Data(renamed.utf8))
        #expect(list.missions.contains { $0.id == "europaclipper" })
    }
}
