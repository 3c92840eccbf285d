import Foundation
import Ephemeris
import Missions
@testable import MissionKernels

/// The repository's files as every suite here reads them: DE440 and the missions loaded once
/// for the whole test process.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
            throw RecipeError(description: "\(path) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    static let ephemeris: Ephemeris = {
        do {
            let catalogue = try Catalogue(json: bytes("Resources/bodies.json"))
            let kernel = try PlanetaryKernel(bytes: KernelBuffer(copying: bytes("Resources/de440-1900-2100.bsp")), file: "Resources/de440-1900-2100.bsp")
            return Ephemeris(catalogue: catalogue, kernel: kernel)
        } catch { fatalError("DE440: \(error)") }
    }()

    /// `Resources/missions.json`.
    static let missions: MissionCatalogue = {
        do { return try MissionCatalogue(json: bytes("Resources/missions.json")) } catch { fatalError("missions.json: \(error)") }
    }()

    static let horizons = "Tests/MissionKernelsTests/Fixtures/horizons/"

    /// The shipped kernel of mission `id` (`Resources/missions/<id>.bsp`), its bodies as the
    /// server reads them (a sampled orbit's segment integrated between its samples).
    static func missionKernel(_ id: String) throws -> KernelBodies {
        let kernel = try SPKKernel(bytes: KernelBuffer(copying: bytes("Resources/missions/\(id).bsp")), file: "\(id).bsp")
        return try KernelBodies([kernel], paths: SampledOrbitPath.make)
    }
}
