import Foundation
import Ephemeris
import Scene
@testable import Rendering

/// Catalogue, stars and textures read once from the package's Resources/.
enum RenderTestEngine {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ path: String) -> [UInt8] {
        do { return [UInt8](try Data(contentsOf: root.appendingPathComponent(path))) } catch { fatalError("\(path): \(error)") }
    }

    static let catalogue: Catalogue = {
        do { return try Catalogue(json: bytes("Resources/bodies.json")) } catch { fatalError("catalogue: \(error)") }
    }()
    static let stars: StarCatalogue = {
        do { return try StarCatalogue(csv: bytes("Resources/stars.csv")) } catch { fatalError("stars: \(error)") }
    }()
    static let ephemeris = Ephemeris(catalogue: catalogue)
    static let layout = SceneLayout(catalogue: catalogue)
    static let textures: TextureSet = {
        var files: [String: [UInt8]] = [:]
        for name in TextureSet.fileNames { files[name] = bytes("Resources/textures/" + name) }
        do { return try TextureSet.decode(files: files) } catch { fatalError("textures: \(error)") }
    }()

    static func scene(_ date: String = "2026-11-22T00:00:00Z", camera: CameraChoice = .overview, width: Int = 640, height: Int = 360, labels: LabelOptions = .standard, overlays: ViewOverlays = .none) -> ViewScene {
        do {
            let t = try TimeScale.parse(date)
            let req = try ViewRequest(instant: t, width: width, height: height, camera: camera, labels: labels)
            return ViewScene(request: req, ephemeris: ephemeris, layout: layout, stars: stars, overlays: overlays)
        } catch { fatalError("scene: \(error)") }
    }
}
