import ArgumentParser
import Ephemeris
import Foundation
import Missions
import Rendering
import Sky
import Logging
import SolarSystemAPI
import Storage

/// Where the data files (`bodies.json`, `stars.csv`, `missions.json`, textures, the DE kernel)
/// are found: `--resources`, then `$SOLARSYSTEM_RESOURCES`, then `./Resources`, then next to
/// the executable, then `/usr/share/solarsystem`. The kernel can be replaced with
/// `--ephemeris` / `$SOLARSYSTEM_EPHEMERIS`; more SPK kernels come with `--kernel` /
/// `$SOLARSYSTEM_KERNELS`.
struct ResourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Directory holding bodies.json, stars.csv, missions.json, textures/, de440-1900-2100.bsp (env SOLARSYSTEM_RESOURCES; default ./Resources, then next to the executable, then /usr/share/solarsystem).", valueName: "dir"))
    var resources: String?

    @Option(name: .long, help: ArgumentHelp("JPL SPK kernel (.bsp) for the Sun, planets, Pluto, Earth and Moon, e.g. de440.bsp or de441.bsp; none for the analytical theories only (env SOLARSYSTEM_EPHEMERIS; default de440-1900-2100.bsp in the resource directory).", valueName: "file"))
    var ephemeris: String?

    @Option(name: .customLong("kernel"), help: ArgumentHelp("An SPK kernel (.bsp) whose bodies are served as naif:<id> (and replace the bundled mission kernels where they cover the same body); repeatable, later files outrank earlier ones (env SOLARSYSTEM_KERNELS, colon-separated; the flag wins).", valueName: "file"))
    var kernels: [String] = []

    @Option(name: .customLong("tle"), help: ArgumentHelp("Element sets of Earth satellites served as iss, norad:<id> and by name: 2- or 3-line TLE text, or CCSDS OMM as JSON or XML (CelesTrak FORMAT=tle, json or xml); at most 32 MiB and 100,000 sets; re-read within seconds when it changes (env SOLARSYSTEM_TLE; default: the bundled ISS set only).", valueName: "file"))
    var tle: String?

    @Option(name: .customLong("elements"), help: ArgumentHelp("Orbital elements of asteroids and comets served as sb:<number>, sb:<designation> and by name: JPL SBDB API JSON (one answer or an array), the MPC's MPCORB.DAT or CometEls.txt, told apart by the content; repeatable, later files outrank earlier ones and the bundled set; at most 512 MiB and 2,000,000 bodies each; re-read within seconds when they change (env SOLARSYSTEM_ELEMENTS, colon-separated; the flag wins; default: the bundled set only).", valueName: "file"))
    var elements: [String] = []

    static let marker = "bodies.json"
    /// The missions' bundled kernels, under the resource directory.
    static let missionKernelDirectory = "missions"
    /// The bundled kernel: JPL DE440 cut to 1899-12 … 2100-01.
    static let defaultKernel = "de440-1900-2100.bsp"

    func candidates() -> [(path: String, origin: String)] {
        var list: [(String, String)] = []
        if let r = resources { list.append((r, "--resources")) }
        if let env = Setting.env("SOLARSYSTEM_RESOURCES") { list.append((env, "SOLARSYSTEM_RESOURCES")) }
        list.append((FileManager.default.currentDirectoryPath + "/Resources", "./Resources"))
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        list.append((exe.appendingPathComponent("Resources").path, "next to the executable"))
        list.append(("/usr/share/solarsystem", "/usr/share/solarsystem"))
        return list
    }

    /// The first candidate directory holding `bodies.json`; an explicit choice that lacks it is an error.
    func directory() throws -> URL {
        for (i, c) in candidates().enumerated() {
            let url = URL(fileURLWithPath: c.path, isDirectory: true)
            if FileManager.default.isReadableFile(atPath: url.appendingPathComponent(Self.marker).path) { return url }
            if i == 0, resources != nil || Setting.env("SOLARSYSTEM_RESOURCES") != nil {
                throw CLIError("\(c.origin) \(c.path): no readable \(Self.marker) there")
            }
        }
        let tried = candidates().map { "\($0.path) (\($0.origin))" }.joined(separator: ", ")
        throw CLIError("no resource directory with \(Self.marker) found; tried \(tried)")
    }

    func read(_ name: String) throws -> [UInt8] {
        let url = try directory().appendingPathComponent(name)
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw CLIError("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// `openapi.yaml`: in the resource directory (installed layouts) or its parent (the repository,
    /// where the spec sits at the top level beside `Resources/`).
    func loadOpenAPIDocument() throws -> [UInt8] {
        let dir = try directory()
        for url in [dir.appendingPathComponent("openapi.yaml"), dir.deletingLastPathComponent().appendingPathComponent("openapi.yaml")] {
            if let data = FileManager.default.contents(atPath: url.path) { return [UInt8](data) }
        }
        throw CLIError("openapi.yaml not found in \(dir.path) or its parent directory")
    }

    func loadStars() throws -> StarCatalogue {
        do { return try StarCatalogue(csv: try read("stars.csv")) } catch let e as StarCatalogueError {
            throw CLIError("stars.csv: \(e)")
        }
    }

    func loadMissions() throws -> MissionCatalogue {
        do { return try MissionCatalogue(json: try read("missions.json")) } catch let e as MissionDataError {
            throw CLIError(e.description)
        }
    }

    /// The surface and ring textures under `textures/`, decoded (a missing or damaged file
    /// stops start-up with its path).
    func loadTextures() throws -> TextureSet {
        var files: [String: [UInt8]] = [:]
        for name in TextureSet.fileNames { files[name] = try read("textures/" + name) }
        do { return try TextureSet.decode(files: files) } catch {
            throw CLIError("textures: \(error)")
        }
    }

    /// The web viewer's files under `web/`, read once (symlinks that leave the directory and
    /// names or types it does not serve are skipped and returned for the log); an empty site
    /// when there is no `web/` directory.
    func loadWebSite() throws -> StaticSite {
        let dir = try directory().appendingPathComponent("web", isDirectory: true)
        guard FileManager.default.fileExists(atPath: dir.path) else { return .empty }
        do { return try StaticSite.load(directory: dir) } catch {
            throw CLIError("web viewer: \(error)")
        }
    }

    /// Where the DE kernel comes from: `--ephemeris`, `$SOLARSYSTEM_EPHEMERIS`, or the bundled
    /// DE440 in the resource directory (`none`: no kernel), with where that was said.
    func kernelPath() throws -> (path: String, origin: String) {
        if let flag = ephemeris { return (flag, "--ephemeris") }
        if let env = Setting.env("SOLARSYSTEM_EPHEMERIS") { return (env, "SOLARSYSTEM_EPHEMERIS") }
        return (try directory().appendingPathComponent(Self.defaultKernel).path, "the resource directory")
    }

    /// The DE kernel (``kernelPath()``) in a private copy (``KernelFile``), opened and every
    /// record checked; nil for `none`. A missing, short, corrupt or incomplete file is an error
    /// naming the file, where its name came from and what is wrong. `checksumInBackground`
    /// starts the copy's CRC-32 for the start-up line right away.
    func loadKernel(checksumInBackground: Bool = false) throws -> LoadedKernel? {
        let (path, origin) = try kernelPath()
        if path == "none" { return nil }
        do {
            let file = try KernelFile(path: path)
            let kernel = try PlanetaryKernel(bytes: file, file: path)
            try kernel.spk.checkData()
            file.releaseResidentPages()
            return LoadedKernel(kernel: kernel, file: file, checksumInBackground: checksumInBackground)
        } catch let e as SPKError {
            throw CLIError("\(e.description) (set by \(origin))")
        } catch let e as CLIError {
            throw CLIError("\(e.description) (set by \(origin))")
        }
    }

    /// The kernels given with `--kernel` (or `$SOLARSYSTEM_KERNELS`), in order, with where the
    /// list came from.
    func userKernels() -> (paths: [String], origin: String) {
        if !kernels.isEmpty { return (kernels, "--kernel") }
        if let env = Setting.env("SOLARSYSTEM_KERNELS") {
            return (env.split(separator: ":", omittingEmptySubsequences: true).map(String.init), "SOLARSYSTEM_KERNELS")
        }
        return ([], "")
    }

    /// Every SPK kernel the missions list (under `missions/` in the resource directory, in the
    /// order the missions name them), then the user's `--kernel` files, which outrank them,
    /// with where each was named.
    func kernelFiles(missions: MissionCatalogue) throws -> [(path: String, origin: String)] {
        let dir = try directory().appendingPathComponent(Self.missionKernelDirectory, isDirectory: true)
        var files: [(path: String, origin: String)] = []
        for m in missions.missions {
            for k in m.kernels where !files.contains(where: { $0.path == dir.appendingPathComponent(k).path }) {
                files.append((dir.appendingPathComponent(k).path, "missions.json, mission \"\(m.id)\""))
            }
        }
        let user = userKernels()
        for p in user.paths { files.append((p, user.origin)) }
        return files
    }

    /// The kernels of ``kernelFiles(missions:)``, each in a private copy (``KernelFile``),
    /// opened, every record checked, and put together. A missing, truncated or damaged file, or
    /// a segment of a type the reader does not evaluate, stops start-up naming the file and the
    /// problem; segments in frames the server cannot turn are refused (reported, not used).
    func loadBodies(missions: MissionCatalogue) throws -> LoadedBodies {
        let files = try kernelFiles(missions: missions)
        let user = userKernels()
        var kernels: [SPKKernel] = []
        var identities: [String] = []
        var stamps: [(path: String, stamp: FileVersions.Stamp)] = []
        for (path, origin) in files {
            do {
                let copy = try KernelFile(path: path, kind: "kernel")
                let kernel = try SPKKernel(bytes: copy, file: path)
                try kernel.checkData()
                copy.releaseResidentPages()
                kernels.append(kernel)
                stamps.append((path, copy.stamp))
                let name = path.split(separator: "/").last.map(String.init) ?? path
                identities.append("\(name):\(copy.bytes.count):\(Int(copy.modified))")
            } catch let e as SPKError {
                throw CLIError("kernel \(e.file): \(e.problem) (set by \(origin))")
            } catch let e as CLIError {
                throw CLIError("\(e.description) (set by \(origin))")
            }
        }
        do {
            return LoadedBodies(bodies: try KernelBodies(kernels, paths: SampledOrbitPath.make), identities: identities, userFiles: user.paths, stamps: stamps)
        } catch {
            throw CLIError("kernel \(error.file): \(error.problem)")
        }
    }

    /// The IERS ΔT table (`iers-delta-t.csv`, made by `scripts/make-iers-table.py`).
    func loadDeltaT() throws -> DeltaTTable {
        do { return try DeltaTTable(csv: try read("iers-delta-t.csv")) } catch let e as DeltaTTableError {
            throw CLIError(e.description)
        }
    }

    /// The IAU constellation boundaries (`constellations/roman1987-boundaries.dat`, made by
    /// `scripts/make-constellation-table.sh`); nil when the resource directory has none.
    func loadConstellations() throws -> Constellations? {
        let name = "constellations/roman1987-boundaries.dat"
        guard FileManager.default.isReadableFile(atPath: try directory().appendingPathComponent(name).path) else { return nil }
        do { return try Constellations(table: try read(name)) } catch let e as ConstellationTableError {
            throw CLIError("\(name): \(e.description)")
        }
    }

    /// The MPC's observatory codes (`observatories/ObsCodes.html`, the MPC's page saved as it
    /// is); none when the resource directory has no list.
    func loadObservatories() throws -> ObservatoryCodes {
        let name = "observatories/ObsCodes.html"
        guard FileManager.default.isReadableFile(atPath: try directory().appendingPathComponent(name).path) else { return .empty }
        do { return try ObservatoryCodes(text: try read(name), source: name) } catch let e as ObservatoryCodesError {
            throw CLIError(e.description)
        }
    }

    func loadCatalogue() throws -> Catalogue {
        do { return try Catalogue(json: try read("bodies.json")) } catch let e as CatalogueError {
            throw CLIError(e.description)
        }
    }
}

/// The kernels' bodies as a command runs with them.
struct LoadedBodies {
    let bodies: KernelBodies
    /// File name, size and modification time of every kernel, in load order.
    let identities: [String]
    /// The user's own kernels (`--kernel`), for the start-up line.
    let userFiles: [String]
    /// Every kernel file and the version of it that was copied, in load order.
    let stamps: [(path: String, stamp: FileVersions.Stamp)]
}

extension ResourceOptions {
    /// The API services as a command that is not `serve` uses them (no web site, no spec).
    func makeServices(textures: Bool = false, sampleCache: SampleCache? = nil, logger: Logger = Logger(label: "solarsystem")) throws -> APIServices {
        let missions = try loadMissions()
        let elementSets = try loadElementSets(logger: logger)
        let loaded = try loadBodies(missions: missions)
        let kernel = try loadKernel()?.kernel
        let smallBodies = try loadSmallBodies(kernel: kernel, logger: logger)
        do {
            return try APIServices(
                catalogue: try loadCatalogue(), kernel: kernel, stars: try loadStars(), missions: missions,
                bodies: loaded.bodies, kernelIdentities: loaded.identities, sampleCache: sampleCache, deltaT: try loadDeltaT(),
                textures: textures ? try loadTextures() : nil, openAPIDocument: [], satellites: elementSets.feed, smallBodies: smallBodies.feed,
                observatories: try loadObservatories(), constellations: try loadConstellations(), logger: logger, clock: { Date().timeIntervalSince1970 })
        } catch let e as MissionDataError {
            throw CLIError(e.description)
        }
    }
}
