import Foundation
import HTTPTestSupport
import Satellites
@testable import SolarSystemAPI
import Testing

/// Fixed-date snapshots are replayed from the event loop's memo (docs/http.md "Replayed
/// answers") only while the answer cache still holds them under the key the planner would
/// compute now: a reload of the element sets, or an emptied cache (a kernel reload), ends it.
@Suite("Replayed snapshots follow reloads")
struct ReplayedAnswerTests {
    static func server(_ services: APIServices) throws -> TestServer {
        let api = V1API(services: services)
        return try TestServer(configure: { $0.eventLoopCount = 1 }) { router in api.register(on: router) }
    }

    static func replayed(_ server: TestServer) -> Double? { server.metric("http_replayed_responses_total") }

    @Test("positions, rotations and the scene are replayed; each replay is a hit of the answer cache")
    func snapshotsReplay() throws {
        let feed = SatelliteFeed(ElementSetWatcher.catalogue(bundled: [("iss.tle", SatelliteServer.file(SatelliteServer.iss))], file: nil))
        let services = SatelliteServer.services(feed)
        let server = try Self.server(services)
        for target in ["/v1/positions?date=2026-09-25", "/v1/rotations?date=2026-09-25", "/v1/scene?date=2026-09-25"] {
            let answers = try (0..<3).map { _ in try server.get(target) }
            #expect(answers.allSatisfy { $0.status == 200 && $0.body == answers[0].body }, "\(target)")
        }
        #expect(Self.replayed(server) == 3)
        let stats = services.responses.statistics
        #expect(stats.misses == 3 && stats.hits == 6, "\(stats)")
    }

    @Test("a new element set is served at once, not the replayed answer of the old one")
    func elementSetReload() throws {
        let feed = SatelliteFeed(ElementSetWatcher.catalogue(bundled: [("iss.tle", SatelliteServer.file(SatelliteServer.iss))], file: nil))
        let server = try Self.server(SatelliteServer.services(feed))
        let target = "/v1/positions?date=2026-09-25&bodies=iss&center=earth"
        for _ in 0..<3 { #expect(try server.get(target).objects("bodies").first?["elementSetEpoch"] as? String == "2026-09-24T03:24:21.453Z") }
        #expect(Self.replayed(server) == 1)

        var newer = SatelliteServer.iss
        newer[1] = "1 25544U 98067A   26268.00000000  .00009634  00000+0  18116-3 0  9999"
        let line = Array(newer[1].utf8)
        newer[1] = String(newer[1].dropLast()) + String(TLEParser.checksum(line[0..<68]))
        feed.replace(with: ElementSetWatcher.catalogue(bundled: [("iss.tle", SatelliteServer.file(newer))], file: nil))
        #expect(try server.get(target).objects("bodies").first?["elementSetEpoch"] as? String == "2026-09-25T00:00:00Z")
        #expect(Self.replayed(server) == 1)
    }

    @Test("an emptied answer cache (what a kernel reload does) ends the replays of what it held")
    func emptiedCache() throws {
        let feed = SatelliteFeed(ElementSetWatcher.catalogue(bundled: [("iss.tle", SatelliteServer.file(SatelliteServer.iss))], file: nil))
        let services = SatelliteServer.services(feed)
        let server = try Self.server(services)
        let target = "/v1/positions?date=2026-01-01T00:00:00Z&bodies=mars"
        for _ in 0..<3 { #expect(try server.get(target).status == 200) }
        #expect(Self.replayed(server) == 1)
        services.responses.removeAll()
        let misses = services.responses.statistics.misses
        #expect(try server.get(target).status == 200)
        #expect(services.responses.statistics.misses == misses + 1, "computed again")
        #expect(Self.replayed(server) == 1)
    }
}
