import Ephemeris
import Foundation
import Logging
import SmallBodies
import SolarSystemAPI

extension ResourceOptions {
    /// The bundled element files (`Resources/smallbodies/`, see THIRDPARTY.md), in order: a
    /// later file outranks an earlier one (Ceres from JPL's SBDB over the MPC's).
    static let bundledSmallBodyFiles = [
        "mpc-MPCORB.excerpt.DAT", "jplsbdb-ceres.dat", "jplsbdb-apophis.dat", "jplsbdb-67P.dat", "jplsbdb-phaethon.dat", "mpc-CometEls.txt",
    ].map { "smallbodies/" + $0 }

    /// `--elements` (repeatable), then `$SOLARSYSTEM_ELEMENTS` (colon-separated), with where they came from.
    func smallBodyElementPaths() -> (paths: [String], origin: String)? {
        if !elements.isEmpty { return (elements, "--elements") }
        if let env = Setting.env("SOLARSYSTEM_ELEMENTS") {
            let paths = env.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
            return paths.isEmpty ? nil : (paths, "SOLARSYSTEM_ELEMENTS")
        }
        return nil
    }

    /// The bundled files, parsed (a problem in one stops start-up: they are ours).
    func loadBundledSmallBodies() throws -> [ElementFile] {
        try Self.bundledSmallBodyFiles.map { name in
            do {
                let file = try ElementFile(name: name, bytes: try read(name))
                guard file.problems.isEmpty else { throw CLIError("\(name): \(file.problems[0])") }
                return file
            } catch let e as ElementFileError {
                throw CLIError("\(name): \(e)")
            }
        }
    }

    /// The small bodies a command runs with: the bundled files, then the operator's (each read
    /// once; `serve` also watches them, see ``ElementSetWatcher``). Bad records are logged by
    /// file, line and reason; the good ones are served. A file that cannot be read at all stops
    /// start-up, naming it.
    /// How far either side of the present `serve` integrates the perturbing asteroids ahead
    /// (memory: about 0.5 MB per asteroid; a date beyond is integrated when first asked).
    static let perturberWarmUpYears = 25.0

    /// `warmUp`: integrate the perturbing asteroids around the present in the background (`serve`).
    func loadSmallBodies(kernel: PlanetaryKernel?, store: (any ChunkStore)? = nil, warmUp: Bool = false, logger: Logger) throws -> (feed: SmallBodyFeed, watchers: [ElementSetWatcher]) {
        let now = (Date().timeIntervalSince1970 / Constants.secondsPerDay + Constants.jdUnixEpoch - Constants.jdJ2000) * Constants.secondsPerDay
        let years = Self.perturberWarmUpYears * 365.25 * Constants.secondsPerDay
        let feed = SmallBodyFeed(kernel: kernel, files: try loadBundledSmallBodies(), store: store,
                                 warmUp: warmUp ? ((now - years)...(now + years), logger) : nil)
        guard let (paths, origin) = smallBodyElementPaths() else { return (feed, []) }
        var watchers: [ElementSetWatcher] = []
        for path in paths {
            let watcher = ElementSetWatcher(path: path, source: SmallBodyElementSource(feed: feed, logger: logger), logger: logger)
            do {
                try watcher.loadNow()
            } catch {
                throw CLIError("small-body elements \(path) (set by \(origin)): \(error.reason)")
            }
            watchers.append(watcher)
        }
        return (feed, watchers)
    }
}
