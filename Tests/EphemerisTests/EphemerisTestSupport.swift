import Foundation
@testable import Ephemeris

/// The engine as the tests use it, built from the repository's `Resources/bodies.json`.
enum TestEngine {
    static let catalogueBytes: [UInt8] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/bodies.json")) else {
            fatalError("Resources/bodies.json not found from \(root.path)")
        }
        return [UInt8](data)
    }()

    static let catalogue: Catalogue = {
        do { return try Catalogue(json: catalogueBytes) } catch { fatalError("catalogue: \(error)") }
    }()

    static let ephemeris = Ephemeris(catalogue: catalogue)

    /// The instant of a reference case, built the way the API builds it (from its UTC string).
    static func instant(_ c: ReferenceFixture.Case) -> Instant {
        do { return try TimeScale.parse(c.utc) } catch { fatalError("\(c.utc): \(error)") }
    }
}
