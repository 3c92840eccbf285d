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

    public func reader(path: String, interrupt: Interrupt) -> any WatchedElementReader { Reader(source: self, path: path, interrupt: interrupt) }

    /// A TLE file whose last line is not a whole line 2, or JSON or XML that does not close.
    public func looksUnfinished(head: [UInt8], tail: [UInt8]) -> Bool {
        ElementSetFile.looksUnfinished(head + [0x0A] + tail)
    }

    /// The catalogue of `bundled` files and `file` (which outranks them), for start-up and reloads.
    public static func catalogue(bundled: [(name: String, file: ElementSetFile)], file: (name: String, file: ElementSetFile)?) -> SatelliteCatalogue {
        SatelliteCatalogue(files: bundled + (file.map { [$0] } ?? []), reservedNames: Set(BodyID.allCases.map(\.rawValue)))
    }

    struct Reader: WatchedElementReader {
        let source: SatelliteElementSource
        let path: String
        let interrupt: Interrupt
        var bytes: [UInt8] = []

        mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementSetError) {
            bytes.append(contentsOf: chunk)
        }

        mutating func finish(reload: Bool) throws(ElementSetError) -> Bool {
            let file = try Self.parse(bytes, path: path, interrupt: interrupt)
            bytes = []
            let catalogue = SatelliteElementSource.catalogue(bundled: source.bundled, file: (path, file))
            source.logProblems(catalogue)
            if file.entries.isEmpty {
                guard !reload else { return false }
                source.logger.warning("element sets: the file holds no usable set; serving the bundled ones alone", metadata: ["file": "\(path)"])
            }
            source.logLoaded(catalogue, path: path, reload: reload)
            source.feed.replace(with: catalogue)
            return true
        }

        static func parse(_ bytes: [UInt8], path: String, interrupt: Interrupt) throws(ElementSetError) -> ElementSetFile {
            do {
                return try ElementSetFile(bytes: bytes, interrupt: interrupt)
            } catch {
                var e = error
                e.reason = "\(path): \(e.reason)"
                throw e
            }
        }
    }

    /// Bad records logged one by one per reading (a file of a million bad lines is summed up).
    static let loggedProblems = 100

    func logProblems(_ catalogue: SatelliteCatalogue) {
        for (file, problem) in catalogue.problems.prefix(Self.loggedProblems) {
            var metadata: Logger.Metadata = ["file": "\(file)", "reason": "\(problem.reason)"]
            if let line = problem.line { metadata["line"] = .stringConvertible(line) }
            if let record = problem.record { metadata["record"] = .stringConvertible(record) }
            if let satellite = problem.satellite { metadata["satellite"] = "\(satellite)" }
            logger.warning("element set not used", metadata: metadata)
        }
        if catalogue.problems.count > Self.loggedProblems {
            logger.warning("element sets: more records not used", metadata: ["notLogged": .stringConvertible(catalogue.problems.count - Self.loggedProblems)])
        }
    }

    func logLoaded(_ catalogue: SatelliteCatalogue, path: String, reload: Bool) {
        let iss = catalogue.satellite(norad: SatelliteCatalogue.issNoradID)
        logger.info(reload ? "element sets reloaded" : "element sets loaded", metadata: [
            "file": "\(path)", "satellites": .stringConvertible(catalogue.satellites.count),
            "problems": .stringConvertible(catalogue.problems.count),
            "issEpoch": "\(iss.flatMap { try? TimeScale.utc(julianDay: $0.elements.epochJDUTC).iso8601 } ?? "none")",
        ])
    }
}
