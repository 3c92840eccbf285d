import ArgumentParser
import Foundation
import Rendering
import SolarSystemAPI

/// `solarsystem bench render`: median times of the pictures `/v1/views/system.*` draws — PNG
/// (scene, ray-cast and encode together) and SVG at 1280×720 for a few cameras, and one
/// 4096×4096 PNG with the process's peak resident memory. (These figures used to be printed by a
/// test; timings belong in a benchmark, not in `swift test`.)
struct RenderBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Median render times of the view endpoint's pictures (1280×720 PNG and SVG, one 4096×4096 PNG)."
    )

    @Option(help: "Runs of each picture; the median is reported.") var runs = 7
    @Option(help: "The date drawn.") var date = "2026-11-22T00:00:00Z"
    @Flag(help: "Skip the 4096×4096 picture.") var skipLarge = false
    @OptionGroup var resources: ResourceOptions

    func run() throws {
        Bench.warnIfDebug("render")
        let services = try resources.makeServices(textures: true)
        guard let renderer = services.renderer else { throw CLIError("no renderer: textures missing") }
        let cameras: [(name: String, focus: String?, distance: String?, elevation: String?)] = [
            ("overview", nil, nil, nil), ("saturn", "saturn", nil, nil), ("earth", "earth", nil, nil),
            ("earth-fill", "earth", "0.16", nil), ("saturn-near", "saturn", "1.6", "0.45"),
        ]
        func query(_ c: (name: String, focus: String?, distance: String?, elevation: String?), _ size: Int, _ height: Int) throws -> ViewQuery {
            do {
                return try ViewQuery.parse(date: date, width: String(size), height: String(height), focus: c.focus, mission: nil, t: nil,
                                           azimuth: nil, elevation: c.elevation, distance: c.distance, labels: "all", services: services)
            } catch {
                throw CLIError(error.detail ?? error.description)
            }
        }
        func median(_ body: () throws -> Int) rethrows -> (ms: Double, bytes: Int) {
            var bytes = 0
            let times = try Bench.run(max(1, runs)) { _ in bytes = try body() }
            return (times.median.wallNs / 1e6, bytes)
        }
        for c in cameras {
            let q = try query(c, 1280, 720)
            let png = try median { renderer.render(q.request, format: .png, overlays: try q.overlays()).count }
            let svg = try median { renderer.render(q.request, format: .svg, overlays: try q.overlays()).count }
            print(String(format: "render %-12@ 1280x720: png %7.1f ms (%d bytes), svg %6.1f ms (%d bytes)", c.name, png.ms, png.bytes, svg.ms, svg.bytes))
        }
        guard !skipLarge else { return }
        let big = try query(cameras[1], 4096, 4096)
        let (bytes, time) = try Bench.time { renderer.render(big.request, format: .png, overlays: try big.overlays()).count }
        let ms = time.wallNs / 1e6
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } ?? "?"
        print(String(format: "render saturn 4096x4096: png %.0f ms (%d bytes); peak resident %@", ms, bytes, peak))
    }
}
