import Ephemeris
import Satellites

/// What an ``ElementSetWatcher`` feeds with its file: the satellites' element sets (`--tle`,
/// ``SatelliteElementSource``) or the asteroids' and comets' elements (`--elements`,
/// ``SmallBodyElementSource``). The watcher owns the file — polling, settling, opening without
/// blocking, refusing what is not a regular file or is too large, reading in chunks — and the
/// source what the bytes mean.
public protocol WatchedElementSource: Sendable {
    /// Files larger than this are refused unread.
    var maxBytes: Int { get }
    /// A reader for one read of the file at `path`; a long reading asks `interrupt` between
    /// records (the watcher's stop).
    func reader(path: String, interrupt: Interrupt) -> any WatchedElementReader
    /// Whether a file beginning with `head` and ending with `tail` is still being written (its
    /// last record cut short): the watcher then waits for it to change or to hold still for
    /// long. The default: never.
    func looksUnfinished(head: [UInt8], tail: [UInt8]) -> Bool
}

extension WatchedElementSource {
    public func looksUnfinished(head: [UInt8], tail: [UInt8]) -> Bool { false }
}

/// One read of a watched file: its bytes in order, then `finish`.
public protocol WatchedElementReader {
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementSetError)
    /// Serves what was read (logging each record not used, and "loaded" or "reloaded" only when
    /// it serves); false when the file held no usable record on a reload, so the previous ones
    /// stay in service. Throws when the file as a whole cannot be used (start-up stops; a reload
    /// keeps the previous ones).
    mutating func finish(reload: Bool) throws(ElementSetError) -> Bool
}
