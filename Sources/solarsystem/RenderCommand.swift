import ArgumentParser
import Foundation
import Rendering
import SolarSystemAPI

/// `solarsystem render`: the views of `GET /v1/views/system.*` written to a file, offline.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render the solar system (or a mission) to an SVG, PPM or PNG file.",
        discussion: "Example: solarsystem render --date 2026-11-22 --focus saturn --out saturn.png"
    )

    @Option(help: "ISO 8601 UTC, jd:<UTC Julian date> or now (not with --mission).") var date: String?
    @Option(help: "Body to frame (its planet preset: Sun-side, with its moons).") var focus: String?
    @Option(help: "Mission id: its date, camera, trajectories and event labels.") var mission: String?
    @Option(name: .customLong("t"), help: "Hours from the mission's launch (with --mission).") var hours: String?
    @Option(help: "Camera azimuth, radians.") var azimuth: String?
    @Option(help: "Camera elevation, radians (−π/2…π/2).") var elevation: String?
    @Option(help: "Camera distance, scene units.") var distance: String?
    @Option(help: "Move the camera's target (and the camera) by x,y,z scene units.") var pan: String?
    @Option(help: "Pixels (16…4096).") var width: String?
    @Option(help: "Pixels (16…4096).") var height: String?
    @Option(help: "Label groups: planets, moons, stars, events, all, none.") var labels: String?
    @Option(help: "Output file; .svg, .ppm or .png.") var out: String
    @OptionGroup var resources: ResourceOptions

    func run() throws {
        let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
        guard let format = ViewFormat(rawValue: ext) else { throw CLIError("--out \(out): the extension must be .svg, .ppm or .png") }
        let services = try resources.makeServices(textures: true)
        let query: ViewQuery
        do {
            query = try ViewQuery.parse(date: date, width: width, height: height, focus: focus, mission: mission, t: hours,
                                        azimuth: azimuth, elevation: elevation, distance: distance, pan: pan, labels: labels, services: services)
        } catch {
            throw CLIError(error.detail ?? error.description)
        }
        guard let renderer = services.renderer else { throw CLIError("no renderer") }
        let start = DispatchTime.now().uptimeNanoseconds
        let bytes = renderer.render(query.request, format: format, overlays: try query.overlays())
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        do { try Data(bytes).write(to: URL(fileURLWithPath: out)) } catch { throw CLIError("cannot write \(out): \(error.localizedDescription)") }
        print("wrote \(out) (\(bytes.count) bytes, \(query.request.width)×\(query.request.height), \(String(format: "%.1f", ms)) ms)")
    }
}
