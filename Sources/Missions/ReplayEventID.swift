/// The `id:` of one event of a mission replay: the mission time in milliseconds, plus a sequence
/// number that orders what happens within the same millisecond. Ids are totally ordered, so a
/// client's `Last-Event-ID` says exactly which events it has seen.
///
/// Within one millisecond `m` the order is: the mission events at `m` (in data order, sequence
/// 0, 1, …), then the telemetry tick at `m` (sequence = the number of events at `m`), then the
/// final `end` (one more). Most ids have sequence 0 and are written as the bare millisecond count,
/// which is also what earlier servers sent; others as `ms.sequence`.
///
/// ```swift
/// ReplayEventID("380008797")      // LM Undock: (380008797, 0)
/// ReplayEventID("380008797.1")    // a second event, or the tick, in that millisecond
/// ReplayEventID("soon")           // nil
/// ```
public struct ReplayEventID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Mission elapsed time in milliseconds (≥ 0).
    public let metMilliseconds: Int64
    /// Position among the replay's events in that millisecond.
    public let sequence: Int

    public init(metMilliseconds: Int64, sequence: Int) {
        self.metMilliseconds = metMilliseconds
        self.sequence = sequence
    }

    /// Parses `ms` or `ms.sequence` (ASCII digits, at most 15 and 6 of them; spaces and tabs
    /// around are ignored). Anything else, including negative times, is nil.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while let b = bytes.first, b == 0x20 || b == 0x09 { bytes = bytes.dropFirst() }
        while let b = bytes.last, b == 0x20 || b == 0x09 { bytes = bytes.dropLast() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let ms = Self.digits(parts[0], maxCount: 15) else { return nil }
        var sequence: Int64 = 0
        if parts.count == 2 {
            guard let s = Self.digits(parts[1], maxCount: 6) else { return nil }
            sequence = s
        }
        self.init(metMilliseconds: ms, sequence: Int(sequence))
    }

    private static func digits(_ bytes: ArraySlice<UInt8>, maxCount: Int) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= maxCount else { return nil }
        var value: Int64 = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            value = value * 10 + Int64(b - 0x30)
        }
        return value
    }

    public var description: String { sequence == 0 ? String(metMilliseconds) : "\(metMilliseconds).\(sequence)" }

    public static func < (a: ReplayEventID, b: ReplayEventID) -> Bool {
        (a.metMilliseconds, a.sequence) < (b.metMilliseconds, b.sequence)
    }
}
