import Foundation
import Testing
import Ephemeris
import Scene
import Rendering

/// Not a check: with RENDER_DUMP_DIR set, writes the reference views there and prints render
/// timings (run it from a release build to read the figures). Skipped otherwise.
@Suite("Render dump")
struct RenderDumpTests {
    static let dir = ProcessInfo.processInfo.environment["RENDER_DUMP_DIR"]

    @Test("write views and time them", .enabled(if: RenderDumpTests.dir != nil))
    func dump() throws {
        let dir = try #require(Self.dir)
        let caster = RayCaster(textures: RenderTestEngine.textures)
        let views: [(String, CameraChoice)] = [
            ("overview", .overview), ("earth", .focus(.earth)), ("saturn", .focus(.saturn)),
            ("jupiter", .focus(.jupiter)), ("sun", .focus(.sun)), ("mars", .focus(.mars)),
            ("earth-fill", .orbit(target: .earth, azimuthRad: nil, elevationRad: nil, distance: 0.16)),
            ("saturn-near", .orbit(target: .saturn, azimuthRad: nil, elevationRad: 0.45, distance: 1.6)),
        ]
        let date = ProcessInfo.processInfo.environment["RENDER_DATE"] ?? "2026-11-22T00:00:00Z"
        for (name, cam) in views {
            let scene = RenderTestEngine.scene(date, camera: cam, width: 1280, height: 720, labels: .all)
            let png = PNGEncoder.encode(caster.render(scene))
            try Data(png).write(to: URL(fileURLWithPath: "\(dir)/\(name).png"))
            try Data(SVGRenderer.render(scene).utf8).write(to: URL(fileURLWithPath: "\(dir)/\(name).svg"))
        }
        func median(_ f: () -> Void) -> Double {
            var times: [Double] = []
            for _ in 0..<7 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                f()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            return times.sorted()[3]
        }
        for (name, cam) in [("overview", CameraChoice.overview), ("saturn", .focus(.saturn)), ("earth", .focus(.earth)),
                            ("earth-fill", .orbit(target: .earth, azimuthRad: nil, elevationRad: nil, distance: 0.16)),
                            ("saturn-near", .orbit(target: .saturn, azimuthRad: nil, elevationRad: 0.45, distance: 1.6))] {
            var bytes = 0
            let total = median {
                let scene = RenderTestEngine.scene(camera: cam, width: 1280, height: 720)
                bytes = PNGEncoder.encode(caster.render(scene)).count
            }
            let scene = RenderTestEngine.scene(camera: cam, width: 1280, height: 720)
            let buildOnly = median { _ = RenderTestEngine.scene(camera: cam, width: 1280, height: 720) }
            var image = caster.render(scene)
            let traceOnly = median { image = caster.render(scene) }
            let pngOnly = median { _ = PNGEncoder.encode(image) }
            let svg = median { _ = SVGRenderer.render(RenderTestEngine.scene(camera: cam, width: 1280, height: 720)) }
            _ = pngOnly
            print("TIMING \(name) 1280x720: png total \(String(format: "%.1f", total)) ms (scene \(String(format: "%.1f", buildOnly)), trace \(String(format: "%.1f", traceOnly)), encode \(String(format: "%.1f", pngOnly))), \(bytes) bytes; svg total \(String(format: "%.1f", svg)) ms")
        }
    
        let big = RenderTestEngine.scene(camera: .focus(.saturn), width: 4096, height: 4096)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let bigPNG = PNGEncoder.encode(caster.render(big))
        let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let hwm = status.split(separator: "\n").first { $0.hasPrefix("VmHWM") } ?? "?"
        print("TIMING saturn 4096x4096 png \(String(format: "%.0f", ms)) ms, \(bigPNG.count) bytes; \(hwm)")
    }
}
