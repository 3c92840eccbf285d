import ArgumentParser
import Ephemeris
import Foundation
import SolarSystemAPI

/// `solarsystem positions`: the engine without the server, printing exactly what
/// `GET /v1/positions` serves for the same parameters.
struct PositionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "positions",
        abstract: "Print body positions as the JSON GET /v1/positions serves.",
        discussion: """
        Example: solarsystem positions --date 2026-11-22T00:00:00Z --bodies earth,moon --frame equatorial
        """
    )

    @Option(help: "ISO 8601 UTC (2026-11-22T00:00:00Z, 2026-11-22), jd:<UTC Julian date>, or now.")
    var date: String = "now"

    @Option(help: "Comma-separated body ids: the 25 engine bodies, naif:<id> of a loaded kernel, or a mission vehicle id (default: the 25).")
    var bodies: String?

    @Option(help: "ecliptic (ecliptic-j2000), equatorial (equatorial-j2000) or scene.")
    var frame: String = "ecliptic-j2000"

    @Option(help: "Centre body id (default sun).")
    var center: String = "sun"

    @Option(help: "au or km (default: au around the Sun, km around any other centre).")
    var units: String?

    @OptionGroup var resources: ResourceOptions

    func run() throws {
        let services = try resources.makeServices()
        var out: [UInt8]
        do {
            let query = try PositionsQuery.parse(date: date, bodies: bodies, frame: frame, center: center, units: units, now: { Date().timeIntervalSince1970 },
                                                 directory: services.bodyDirectory)
            out = try services.engine.positions(query).json()
        } catch {
            throw CLIError(error.detail ?? error.description)
        }
        out.append(0x0A)
        FileHandle.standardOutput.write(Data(out))
    }
}
