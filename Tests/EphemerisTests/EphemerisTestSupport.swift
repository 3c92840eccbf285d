import Foundation
@testable import Ephemeris

/// The engine as the tests use it, built from the repository's `Resources/`.
enum TestEngine {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file of the repository, by its path from the top.
    static func repositoryFile(_ path: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else {
            fatalError("\(path) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    static let catalogueBytes = repositoryFile("Resources/bodies.json")

    static let catalogue: Catalogue = {
        do { return try Catalogue(json: catalogueBytes) } catch { fatalError("catalogue: \(error)") }
    }()

    /// The analytical theories alone (no kernel).
    static let ephemeris = Ephemeris(catalogue: catalogue)

    /// The bundled kernel's bytes, `Resources/de440-1900-2100.bsp` of the repository.
    static let kernelBytes = repositoryFile("Resources/de440-1900-2100.bsp")

    static let kernel: PlanetaryKernel = {
        do { return try PlanetaryKernel(bytes: KernelBuffer(copying: kernelBytes), file: "Resources/de440-1900-2100.bsp") } catch {
            fatalError("\(error)")
        }
    }()

    /// The engine as served: DE440 inside its span, the analytical theories outside.
    static let served = Ephemeris(catalogue: catalogue, kernel: kernel)

    /// The instant of a reference case, built the way the API builds it (from its UTC string).
    static func instant(_ c: ReferenceFixture.Case) -> Instant {
        do { return try TimeScale.parse(c.utc) } catch { fatalError("\(c.utc): \(error)") }
    }
}
