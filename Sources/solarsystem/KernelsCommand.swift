import ArgumentParser
import Ephemeris
import Foundation
import MissionKernels
import Missions
import Sky
import Synchronization

/// `solarsystem kernels build`: writes the missions' SPK kernels into `Resources/missions/` from
/// their recipes (Sources/MissionKernels) and sources (JPL Horizons vectors, NAIF kernels).
/// Deterministic: the same sources and code give the same bytes.
struct KernelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernels",
        abstract: "Build the missions' SPK kernels from their sources.",
        subcommands: [KernelsBuildCommand.self]
    )
}

struct KernelsBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write Resources/missions/<id>.bsp for every (or the named) mission."
    )

    @Option(name: .customLong("mission"), help: "Mission id (repeatable; default: every mission with a recipe).")
    var missionIDs: [String] = []

    @Option(help: "Directory of the JPL Horizons source files.")
    var sources = "Tests/MissionKernelsTests/Fixtures/horizons"

    @Option(help: "Output directory (default: missions/ in the resource directory).")
    var out: String?

    @Option(help: "Largest interpolation error left between nodes, metres.")
    var toleranceM: Double = 5

    @Option(help: "Missions built at once (default: one per core).")
    var jobs: Int?

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        let catalogue = try resources.loadCatalogue()
        guard let kernel = try resources.loadKernel()?.kernel else { throw CLIError("kernels build needs the DE kernel (not --ephemeris none)") }
        let ephemeris = Ephemeris(catalogue: catalogue, kernel: kernel)
        let missions = try resources.loadMissions()
        let outDir = try out.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? resources.directory().appendingPathComponent(ResourceOptions.missionKernelDirectory, isDirectory: true)
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let ids = missionIDs.isEmpty ? MissionRecipes.all.map(\.missionID) : missionIDs
        for id in ids where MissionRecipes.recipe(id) == nil {
            throw CLIError("no recipe for mission \(id); recipes: \(MissionRecipes.all.map(\.missionID).joined(separator: ", "))")
        }
        // Launch pads turn with the Earth's UT1 and pole from the IERS table.
        let terrestrial = TerrestrialFrame(ephemeris: ephemeris, deltaT: try resources.loadDeltaT())
        var tuned = KernelAssembly(ephemeris: ephemeris)
        tuned.toleranceKm = toleranceM / 1000
        let assembly = tuned
        let sourceDir = URL(fileURLWithPath: sources, isDirectory: true)
        // Each mission is built on its own (no recipe reads another's output), so the missions
        // are shared out over the cores (each file's bytes do not depend on it: checked by
        // `scripts/generate.sh --check`). Reports are printed whole, in the order the missions finish.
        let next = Mutex(0)
        let failures = Mutex<[(String, any Error)]>([])
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, ids.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = next.withLock { n in defer { n += 1 }; return n }
                guard i < ids.count else { return }
                let id = ids[i]
                do {
                    let text = try Self.build(id, missions: missions, ephemeris: ephemeris, terrestrial: terrestrial, assembly: assembly, sourceDir: sourceDir, outDir: outDir)
                    print(text)
                } catch {
                    failures.withLock { $0.append((id, error)) }
                }
            }
        }
        let failed = failures.withLock { $0 }
        if !failed.isEmpty {
            throw CLIError(failed.map { "\($0.0): \($0.1)" }.joined(separator: "\n"))
        }
    }

    /// Builds one mission's kernel and provenance sidecar; returns its report.
    static func build(_ id: String, missions: MissionCatalogue, ephemeris: Ephemeris, terrestrial: TerrestrialFrame, assembly: KernelAssembly,
                      sourceDir: URL, outDir: URL) throws -> String {
        guard let recipe = MissionRecipes.recipe(id) else { throw CLIError("no recipe for mission \(id)") }
        let mission = try missions.mission(id)
        let context = BuildContext(ephemeris: ephemeris, mission: mission, source: { name in
            guard let d = FileManager.default.contents(atPath: sourceDir.appendingPathComponent(name).path) else {
                throw CLIError("source \(sourceDir.appendingPathComponent(name).path) not found")
            }
            return [UInt8](d)
        }, kernel: { name in
            let path = outDir.appendingPathComponent(name).path
            return try SPKKernel(bytes: try KernelFile(path: path, kind: "kernel"), file: path)
        }, terrestrial: terrestrial)
        let start = Date()
        let (bytes, report, provenance) = try MissionKernelBuilder.build(recipe, context: context, assembly: assembly)
        let file = outDir.appendingPathComponent("\(id).bsp")
        try Data(bytes).write(to: file)
        let sidecar = outDir.appendingPathComponent("\(id).provenance.json")
        if provenance.isEmpty {
            try? FileManager.default.removeItem(at: sidecar)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(provenance).write(to: sidecar)
        }
        return "\(report)\n" + String(format: "  wrote %@ (%d bytes) in %.1f s", file.path, bytes.count, Date().timeIntervalSince(start))
    }
}
