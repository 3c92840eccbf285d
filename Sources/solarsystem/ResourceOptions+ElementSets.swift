import Foundation
import Logging
import Satellites
import SolarSystemAPI

extension ResourceOptions {
    /// The bundled element sets (`iss.tle`: the ISS's latest set at build time), served under the
    /// operator's `--tle` file.
    static let bundledElementSets = "iss.tle"

    /// `--tle`, then `$SOLARSYSTEM_TLE`, with where it came from.
    func elementSetPath() -> (path: String, origin: String)? {
        if let tle { return (tle, "--tle") }
        if let env = Setting.env("SOLARSYSTEM_TLE") { return (env, "SOLARSYSTEM_TLE") }
        return nil
    }

    /// The bundled sets, parsed (a bad bundled file stops start-up: it is ours).
    func loadBundledElementSets() throws -> [(name: String, file: ElementSetFile)] {
        do {
            let file = try ElementSetFile(bytes: try read(Self.bundledElementSets))
            guard file.problems.isEmpty else { throw CLIError("\(Self.bundledElementSets): \(file.problems[0])") }
            return [(Self.bundledElementSets, file)]
        } catch let e as ElementSetError {
            throw CLIError("\(Self.bundledElementSets): \(e)")
        }
    }

    /// The element sets a command runs with: the bundled ones, then the operator's file (read
    /// once; `serve` also watches it, see ``ElementSetWatcher``). Bad records are logged by file,
    /// line and reason; the good ones are served.
    func loadElementSets(logger: Logger) throws -> (feed: SatelliteFeed, watcher: ElementSetWatcher?) {
        let bundled = try loadBundledElementSets()
        guard let (path, origin) = elementSetPath() else {
            return (SatelliteFeed(ElementSetWatcher.catalogue(bundled: bundled, file: nil)), nil)
        }
        let feed = SatelliteFeed()
        let watcher = ElementSetWatcher(path: path, bundled: bundled, feed: feed, logger: logger)
        do {
            try watcher.loadNow()
        } catch {
            throw CLIError("element sets \(path) (set by \(origin)): \(error.reason)")
        }
        return (feed, watcher)
    }
}
