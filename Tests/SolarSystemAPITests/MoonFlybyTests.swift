import Foundation
import HTTPTestSupport
import Missions
import Testing

/// Without a kernel for the moon, every published close moon flyby of the missions (Cassini's
/// Titan, Rhea and Dione flybys, Juno's Ganymede, Europa and Io flybys, Voyager 1's Io and
/// Titan) is drawn relative to the moon (``MoonAnchor``): at the published time the served
/// altitude is within 10 % of the published one, and over the hours around it the path never
/// comes closer than 90 % of the published distance — never through the moon.
@Suite("Published moon flybys, relative to the moon")
struct MoonFlybyTests {
    struct Flyby {
        let mission: String
        let vehicle: String
        let key: String
        let moon: String
        let date: String
        /// Published altitude above the moon's surface, or distance from its centre.
        let altitudeKm: Double?
        let distanceKm: Double?
    }

    static let moons: Set<String> = ["io", "europa", "ganymede", "callisto", "mimas", "enceladus", "tethys", "dione", "rhea", "titan", "iapetus", "phobos", "deimos"]

    /// Every event of the served missions whose fact is a moon flyby, at the time the server
    /// gives it (a date-only event's at its closest approach).
    static func flybys() throws -> [Flyby] {
        var out: [Flyby] = []
        for mission in APIServer.missions.missions {
            let detail = try APIServer.get("/v1/missions/\(mission.id)")
            for e in detail.objects("events") {
                guard let fact = e["fact"] as? [String: Any], let moon = fact["body"] as? String, moons.contains(moon),
                      let key = e["key"] as? String, let date = e["date"] as? String else { continue }
                out.append(Flyby(mission: mission.id, vehicle: mission.primaryVehicle?.id ?? "", key: key, moon: moon, date: date,
                                 altitudeKm: number(fact["altitudeKm"]), distanceKm: number(fact["distanceKm"])))
            }
        }
        return out
    }

    @Test("at the published time the served altitude is the published one, within 10 %")
    func altitudes() throws {
        var checked = 0
        for f in try Self.flybys() {
            let tm = try APIServer.get("/v1/missions/\(f.mission)/telemetry?date=\(f.date)")
            let nearest = try #require(tm.objects("vehicles").first?["nearestBody"] as? [String: Any], "\(f.mission) \(f.key)")
            #expect(nearest["id"] as? String == f.moon, "\(f.mission) \(f.key): nearest \(nearest)")
            if let published = f.altitudeKm {
                let served = number(nearest["altitudeKm"]) ?? .nan
                #expect(abs(served - published) <= 0.1 * published, "\(f.mission) \(f.key): \(served) km up, published \(published)")
            } else if let published = f.distanceKm {
                let served = number(nearest["distanceKm"]) ?? .nan
                #expect(abs(served - published) <= 0.1 * published, "\(f.mission) \(f.key): \(served) km, published \(published)")
            }
            // One origin: /v1/positions measures the vehicle from the same moon as telemetry.
            let centered = try APIServer.get("/v1/positions?date=\(f.date)&bodies=\(f.vehicle)&center=\(f.moon)&units=km").objects("bodies").first
            let apart = number(centered?["distance"]) ?? .nan
            #expect(abs(apart - (number(nearest["distanceKm"]) ?? .nan)) < 0.5, "\(f.mission) \(f.key): positions \(apart) km, telemetry \(nearest)")
            // The moon's theory says where it was moved, and by how much.
            let theory = try APIServer.get("/v1/positions?date=\(f.date)&bodies=\(f.moon)").objects("bodies").first?["theory"] as? String
            #expect(theory?.contains("moved") == true, "\(f.mission) \(f.key): \(theory ?? "")")
            checked += 1
        }
        // Cassini 21 (18 of Titan, Rhea, Dione), Juno 4, Voyager 1 2.
        #expect(checked >= 27)
    }

    @Test("over two hours either side the path stays outside 90 % of the published distance")
    func neverThroughTheMoon() throws {
        var checked = 0
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        for f in try Self.flybys() {
            guard let at = formatter.date(from: f.date) ?? plain.date(from: f.date) else { Issue.record("\(f.date)"); continue }
            let start = plain.string(from: at.addingTimeInterval(-7200)), stop = plain.string(from: at.addingTimeInterval(7200))
            let series = try APIServer.get("/v1/positions/\(f.vehicle)?start=\(start)&stop=\(stop)&step=1m&center=\(f.moon)&units=km")
            let closest = series.objects("samples").compactMap { number($0["distance"]) }.min() ?? 0
            let radius = f.distanceKm == nil ? try moonRadius(f.moon) : 0
            let published = f.distanceKm ?? (radius + (f.altitudeKm ?? 0))
            #expect(closest >= 0.9 * published && closest > radius, "\(f.mission) \(f.key): \(closest) km from \(f.moon)'s centre, published \(published)")
            checked += 1
        }
        #expect(checked >= 27)
    }

    func moonRadius(_ moon: String) throws -> Double {
        number(try APIServer.get("/v1/bodies/\(moon)").json["radiusKm"]) ?? 0
    }
}
