import Satellites

/// What an ``ElementSetWatcher`` feeds with its file: the satellites' element sets (`--tle`,
/// ``SatelliteElementSource``) or the asteroids' and comets' elements (`--elements`,
/// ``SmallBodyElementSource``). The watcher owns the file — polling, settling, opening, reading
/// in chunks, refusing what is too large — and the source what the bytes mean.
public protocol WatchedElementSource: Sendable {
    /// Files larger than this are refused unread.
    var maxBytes: Int { get }
    /// A reader for one read of the file at `path`.
    func reader(path: String) -> any WatchedElementReader
}

/// One read of a watched file: its bytes in order, then `finish`.
public protocol WatchedElementReader {
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementSetError)
    /// Serves what was read (logging each record not used); false when the file held no
    /// usable record on a reload, so the previous ones stay in service. Throws when the file as
    /// a whole cannot be used (start-up stops; a reload keeps the previous ones).
    mutating func finish(reload: Bool) throws(ElementSetError) -> Bool
}
