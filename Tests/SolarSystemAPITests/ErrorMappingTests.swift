import Foundation
import HTTPCore
import Missions
import Rendering
@testable import SolarSystemAPI
import Testing

@Suite("errors from lower modules become problems in the one place")
struct ErrorMappingTests {
    func problem(_ error: any Error) throws -> (HTTPResponse, [String: Any]) {
        let response = ErrorMiddleware.response(for: error, request: try HTTPRequest(target: "/v1/missions/apollo11/trajectory"), context: RequestContext())
        let json = try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any] ?? [:]
        return (response, json)
    }

    @Test("MissionQueryError: unknown ids are 404 with the valid ids, bad values 400 naming the parameter")
    func missionQueryErrors() throws {
        let (mission, m) = try problem(MissionQueryError.unknownMission(id: "vulcan", valid: ["apollo11", "cassini"]))
        #expect(mission.status == .notFound)
        #expect(mission.headers["content-type"] == "application/problem+json")
        #expect(m["validIds"] as? [String] == ["apollo11", "cassini"] && m["value"] as? String == "vulcan")
        #expect(m["instance"] as? String == "/v1/missions/apollo11/trajectory")

        let (vehicle, v) = try problem(MissionQueryError.unknownVehicle(mission: "apollo11", id: "rover", valid: ["saturn_v", "lm_eagle"]))
        #expect(vehicle.status == .notFound)
        #expect(v["parameter"] as? String == "vehicle" && v["validIds"] as? [String] == ["saturn_v", "lm_eagle"])

        let (samples, s) = try problem(MissionQueryError.sampleCountOutOfRange(count: 1, accepted: 2...20_000))
        #expect(samples.status == .badRequest)
        #expect(s["parameter"] as? String == "samples" && s["value"] as? String == "1")

        let (time, t) = try problem(MissionQueryError.invalidTime(hours: .infinity))
        #expect(time.status == .badRequest)
        #expect((t["detail"] as? String)?.contains("finite") == true)
    }

    @Test("a view's mission overlays are computed where it renders, and carry every vehicle's line")
    func overlaysOffTheParser() throws {
        let services = APIServer.services
        let query = try ViewQuery.parse(date: nil, width: "64", height: "48", focus: nil, mission: "apollo11", t: "80",
                                        azimuth: nil, elevation: nil, distance: nil, labels: nil, services: services)
        let overlays = try query.overlays()
        let vehicles = try #require(services.missionScenes["apollo11"]).engine.tracks.count
        #expect(overlays.polylines.count >= vehicles * 2, "each vehicle's line in gradient segments")
        let plain = try ViewQuery.parse(date: "2026-01-01", width: "64", height: "48", focus: nil, mission: nil, t: nil,
                                        azimuth: nil, elevation: nil, distance: nil, labels: nil, services: services)
        #expect(try plain.overlays().polylines.isEmpty)
    }
}
