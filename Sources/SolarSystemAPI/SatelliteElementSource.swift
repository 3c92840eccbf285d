import Ephemeris
import Logging
import Satellites

/// The `--tle` file's meaning for ``ElementSetWatcher``: TLE or OMM element sets, served under
/// the bundled ones (the ISS) through a ``SatelliteFeed``.
public struct SatelliteElementSource: WatchedElementSource {
    let bundled: [(name: String, file: ElementSetFile)]
    let feed: SatelliteFeed
    let logger: Logger

    public init(bundled: [(name: String, file: ElementSetFile)], feed: SatelliteFeed, logger: Logger) {
        self.bundled = bundled
        self.feed = feed
        self.logger = logger
    }

    /// The file is read whole (at most ``ElementSetFile/maxBytes`` + 1: a larger one is refused
    /// by the parser).
    public var maxBytes: Int { ElementSetFile.maxBytes + 1 }

    public func reader(path: String) -> any WatchedElementReader { Reader(source: self, path: path) }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteCatalogue(files: bundled + (file.map { [$0] } ?? []), reservedNames: Set(BodyID.allCases.map(\.rawValue)))
    }

    struct Reader: WatchedElementReader {
        let source: SatelliteElementSource
        let path: String
        var bytes: [UInt8] = []

        mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementSetError) {
            bytes.append(contentsOf: chunk)
        }

        mutating func finish(reload: Bool) throws(ElementSetError) -> Bool {
            let file = try Self.parse(bytes, path: path)
            bytes = []
            let catalogue = SatelliteElementSource.catalogue(bundled: source.bundled, file: (path, file))
            source.log(catalogue, path: path, reload: reload)
            guard !reload || !file.entries.isEmpty else { return false }
            source.feed.replace(with: catalogue)
            return true
        }

        static func parse(_ bytes: [UInt8], path: String) throws(ElementSetError) -> ElementSetFile {
            do {
                return try ElementSetFile(bytes: bytes)
            } catch {
                var e = error
                e.reason = "\(path): \(e.reason)"
                throw e
            }
        }
    }

    func log(_ catalogue: SatelliteCatalogue, path: String, reload: Bool) {
        for (file, problem) in catalogue.problems {
            var metadata: Logger.Metadata = ["file": "\(file)", "reason": "\(problem.reason)"]
            if let line = problem.line { metadata["line"] = .stringConvertible(line) }
            if let record = problem.record { metadata["record"] = .stringConvertible(record) }
            if let satellite = problem.satellite { metadata["satellite"] = "\(satellite)" }
            logger.warning("element set not used", metadata: metadata)
        }
        let iss = catalogue.satellite(norad: SatelliteCatalogue.issNoradID)
        logger.info(reload ? "element sets reloaded" : "element sets loaded", metadata: [
            "file": "\(path)", "satellites": .stringConvertible(catalogue.satellites.count),
            "problems": .stringConvertible(catalogue.problems.count),
            "issEpoch": "\(iss.flatMap { try? TimeScale.utc(julianDay: $0.elements.epochJDUTC).iso8601 } ?? "none")",
        ])
    }
}
