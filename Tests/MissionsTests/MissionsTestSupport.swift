import Foundation
import Ephemeris
import Scene
@testable import Missions

/// Missions, engine and catalogue as the tests use them, read from the repository's `Resources/`.
enum TestMissions {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ name: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/\(name)")) else {
            fatalError("Resources/\(name) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    static let missionBytes = bytes("missions.json")

    static let catalogue: MissionCatalogue = {
        do { return try MissionCatalogue(json: missionBytes) } catch { fatalError("missions: \(error)") }
    }()

    static let ephemeris: Ephemeris = {
        do { return Ephemeris(catalogue: try Catalogue(json: bytes("bodies.json"))) } catch { fatalError("catalogue: \(error)") }
    }()

    static let layout = SceneLayout(catalogue: ephemeris.catalogue)

    static func mission(_ id: String) -> Mission {
        guard let m = catalogue[id] else { fatalError("no mission \(id)") }
        return m
    }

    static func engine(_ id: String) -> MissionEngine {
        MissionEngine(mission: mission(id), ephemeris: ephemeris, layout: layout)
    }

    /// The raw JSON array, for building malformed variants.
    static func rawMissions() -> [[String: Any]] {
        guard let a = try? JSONSerialization.jsonObject(with: Data(missionBytes)) as? [[String: Any]] else { fatalError("missions.json") }
        return a
    }

    static func encode(_ object: Any) -> [UInt8] {
        guard let d = try? JSONSerialization.data(withJSONObject: object) else { fatalError("encode") }
        return [UInt8](d)
    }

    /// Decoding error of `missions.json` after `edit` is applied to the mission with `id`.
    static func error(editing id: String, _ edit: (inout [String: Any]) -> Void) -> MissionDataError? {
        var all = rawMissions()
        guard let i = all.firstIndex(where: { $0["id"] as? String == id }) else { fatalError("no \(id)") }
        edit(&all[i])
        do {
            _ = try MissionCatalogue(json: encode(all))
            return nil
        } catch {
            return error
        }
    }
}

/// Tolerances in named units.
func km(_ x: Double) -> Double { x }
func au(_ x: Double) -> Double { x }
func kmPerS(_ x: Double) -> Double { x }

extension TestMissions {
    /// The engine as served: DE440 (`Resources/de440-1900-2100.bsp`) inside its span.
    static let de440: Ephemeris = {
        do {
            let kernel = try PlanetaryKernel(bytes: KernelBuffer(copying: bytes("de440-1900-2100.bsp")), file: "Resources/de440-1900-2100.bsp")
            return Ephemeris(catalogue: ephemeris.catalogue, kernel: kernel)
        } catch { fatalError("kernel: \(error)") }
    }()

    /// TDB seconds past J2000 of a UTC calendar time.
    static func tdbSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Double {
        do { return try TimeScale.utc(year: year, month: month, day: day, hour: hour, minute: minute, second: second).daysSinceJ2000TDB * Constants.secondsPerDay } catch {
            fatalError("\(error)")
        }
    }
}
