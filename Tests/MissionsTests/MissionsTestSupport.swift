import Foundation
import Ephemeris
import Scene
@testable import Missions

/// The engine and data as the tests use them, read from the repository's `Resources/`.
enum TestMissions {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ name: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/\(name)")) else {
            fatalError("Resources/\(name) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    /// The analytical theories alone.
    static let ephemeris: Ephemeris = {
        do { return Ephemeris(catalogue: try Catalogue(json: bytes("bodies.json"))) } catch { fatalError("catalogue: \(error)") }
    }()

    static let layout = SceneLayout(catalogue: ephemeris.catalogue)
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
