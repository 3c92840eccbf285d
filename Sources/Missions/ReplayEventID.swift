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

    /// Parses `ms` or `ms.sequence` (ASCII digits; spaces and tabs around are ignored). A time
    /// too large for 64 bits is the largest there is — past the end of every replay, so a
    /// resume from it ends at once, as one from any other time past the end does — and a
    /// sequence of more than 6 digits likewise. Anything else, including negative times, is nil.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while let b = bytes.first, b == 0x20 || b == 0x09 { bytes = bytes.dropFirst() }
        while let b = bytes.last, b == 0x20 || b == 0x09 { bytes = bytes.dropLast() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let ms = Self.digits(parts[0], saturatingAt: .max) else { return nil }
        var sequence: Int64 = 0
        if parts.count == 2 {
            guard let s = Self.digits(parts[1], saturatingAt: 999_999) else { return nil }
            sequence = s
        }
        self.init(metMilliseconds: ms, sequence: Int(sequence))
    }

    /// The value of a run of ASCII digits, at most `limit`; nil when it is not one.
    private static func digits(_ bytes: ArraySlice<UInt8>, saturatingAt limit: Int64) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for b in bytes {
            guard b >= 0x30, b <= 0x39 else { return nil }
            if value > (limit - Int64(b - 0x30)) / 10 {
                value = limit
            } else {
                value = value * 10 + Int64(b - 0x30)
            }
        }
        return value
    }

    public var description: String { sequence == 0 ? String(metMilliseconds) : "\(metMilliseconds).\(sequence)" }

    public static func < (a: ReplayEventID, b: ReplayEventID) -> Bool {
        (a.metMilliseconds, a.sequence) < (b.metMilliseconds, b.sequence)
    }
}
