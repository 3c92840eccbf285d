import Ephemeris
import Missions

/// Builds a mission's SPK kernel from its recipe: each vehicle's pieces become type 13
/// segments (``KernelAssembly``), and the comment area says where every piece comes from.
public enum MissionKernelBuilder {
    /// Bumped when the generator changes what it writes.
    public static let version = "mission-kernels 1"

    public struct Report: Sendable, CustomStringConvertible {
        public let mission: String
        public let lines: [String]
        public var description: String { lines.joined(separator: "\n") }
    }

    /// The kernel's bytes, a report for the console, and what each vehicle's path did with its
    /// source samples (empty when no vehicle follows source samples).
    public static func build(_ recipe: MissionRecipe, context: BuildContext, assembly: KernelAssembly) throws
        -> (bytes: [UInt8], report: Report, provenance: [SourceProvenance]) {
        let m = context.mission
        var writer = SPKKernelWriter(internalName: "SolarSystem \(m.id) \(version)")
        var comments = [
            "SolarSystem mission kernel: \(m.name) (\(m.id))",
            "",
            "Written by `solarsystem kernels build` (\(version); Sources/MissionKernels) from the",
            "mission's data (Resources/missions.json: event times, facts and their sources) and:",
        ] + recipe.sources.map { "  \($0)" } + [
            "Every segment: SPK type 13 (Hermite, unequal steps), frame J2000 unless its frame says",
            "otherwise, times TDB. Nodes keep every source sample exactly; between them, as many more",
            "as keep the interpolation within \(Int((assembly.toleranceKm * 1000).rounded())) m of the path.",
            "",
            "Trajectory: " + m.trajectorySummary,
        ]
        var report: [String] = ["\(m.id):"]
        var provenance: [SourceProvenance] = []
        for path in try recipe.paths(context) {
            if let p = path.provenance { provenance.append(p) }
            comments += ["", "Vehicle \(path.vehicle.name) (\(path.vehicle.id)), NAIF id \(path.vehicle.naifID):"] + path.notes.map { "  \($0)" }
            report.append("  \(path.vehicle.id) (\(path.vehicle.naifID)):")
            for note in path.notes { report.append("    \(note)") }
            // The vehicle's pieces, then the bodies the path moved (named by their NAIF id).
            let written = path.pieces.map { (target: path.vehicle.naifID, piece: $0, body: Int?.none) }
                + path.bodyPieces.map { (target: $0.naifID, piece: $0.piece, body: Int?.some($0.naifID)) }
            for (target, piece, body) in written {
                let (segment, nodes) = try assembly.segment(piece, target: target)
                writer.segments.append(segment)
                let span = "\(TimeScale.instant(tdbSecondsPastJ2000: piece.startSeconds).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: piece.endSeconds).iso8601)"
                comments.append("  \(piece.name)\(body.map { " (NAIF id \($0))" } ?? ""): \(span), centre \(piece.center), \(nodes) states.")
                comments += piece.notes.map { "    \($0)" }
                report.append("    \(piece.name)\(body.map { " (\($0))" } ?? ""): \(span), \(nodes) states")
            }
        }
        writer.comments = comments.flatMap { wrap($0, width: 78) }
        return (try writer.bytes(), Report(mission: m.id, lines: report), provenance)
    }

    /// Comment lines broken at spaces to at most `width` characters, ASCII only (NAIF's
    /// comment area takes printable ASCII).
    static func wrap(_ line: String, width: Int) -> [String] {
        let ascii = String(line.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : Self.transliterate($0) })
        guard ascii.count > width else { return [ascii] }
        var out: [String] = [], current = ""
        let indent = String(ascii.prefix { $0 == " " })
        for word in ascii.split(separator: " ") {
            if current.count + word.count + 1 > width, !current.isEmpty {
                out.append(current)
                current = indent + "  " + word
            } else {
                current = current.isEmpty ? indent + word : current + " " + word
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    static func transliterate(_ s: Unicode.Scalar) -> Character {
        switch s {
        case "–", "—", "−": "-"
        case "’", "‘": "'"
        case "“", "”": "\""
        case "°": "d"
        case "²": "2"
        case "³": "3"
        default: "?"
        }
    }
}
