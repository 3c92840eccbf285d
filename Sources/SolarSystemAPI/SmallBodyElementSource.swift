import Ephemeris
import Logging
import Satellites
import SmallBodies

/// An `--elements` file's meaning for ``ElementSetWatcher``: JPL SBDB JSON, MPCORB or MPC comet
/// lines (``ElementFileParser``, fed chunk by chunk, so the MPC's 290 MB file is never held
/// whole), served in place of the file's previous version through a ``SmallBodyFeed``.
public struct SmallBodyElementSource: WatchedElementSource {
    let feed: SmallBodyFeed
    let logger: Logger

    public init(feed: SmallBodyFeed, logger: Logger) {
        self.feed = feed
        self.logger = logger
    }

    public var maxBytes: Int { ElementFile.maxBytes }

    /// Problems logged one by one per read; the rest are counted in one line.
    static let loggedProblems = 100

    public func reader(path: String, interrupt: Interrupt) -> any WatchedElementReader { Reader(source: self, path: path, parser: ElementFileParser(name: path)) }

    struct Reader: WatchedElementReader {
        let source: SmallBodyElementSource
        let path: String
        var parser: ElementFileParser

        mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementSetError) {
            do { try parser.consume(chunk) } catch { throw ElementSetError(reason: "\(path): \(error.reason)") }
        }

        mutating func finish(reload: Bool) throws(ElementSetError) -> Bool {
            let file: ElementFile
            do { file = try parser.finish() } catch { throw ElementSetError(reason: "\(path): \(error.reason)") }
            source.logProblems(file)
            guard !reload || file.count > 0 else { return false }
            source.logLoaded(file, reload: reload)
            source.feed.replace(file)
            return true
        }
    }

    /// Each record not used (file, line or record, body, reason), then the totals.
    public func log(_ file: ElementFile, reload: Bool) {
        logProblems(file)
        logLoaded(file, reload: reload)
    }

    /// Each record not used (file, line or record, body, reason); past 100, a count.
    func logProblems(_ file: ElementFile) {
        for problem in file.problems.prefix(Self.loggedProblems) {
            var metadata: Logger.Metadata = ["file": "\(file.name)", "reason": "\(problem.reason)"]
            if let line = problem.line { metadata["line"] = .stringConvertible(line) }
            if let record = problem.record { metadata["record"] = .stringConvertible(record) }
            if let body = problem.body { metadata["body"] = "\(body)" }
            logger.warning("small-body record not used", metadata: metadata)
        }
        if file.problemCount > Self.loggedProblems {
            logger.warning("small-body records not used: more", metadata: ["file": "\(file.name)", "notLogged": .stringConvertible(file.problemCount - Self.loggedProblems)])
        }
    }

    /// That the file is served, with its counts.
    func logLoaded(_ file: ElementFile, reload: Bool) {
        logger.info(reload ? "small-body elements reloaded" : "small-body elements loaded", metadata: [
            "file": "\(file.name)", "format": "\(file.format.rawValue)", "bodies": .stringConvertible(file.count),
            "problems": .stringConvertible(file.problemCount),
        ])
    }
}
