/// A request Horizons itself would refuse, in its own words: answered inside the API's envelope
/// (`{"signature":…,"error":"…"}`, or the text after the `API VERSION` lines) with HTTP 400,
/// which the Horizons API documentation gives for "invalid keywords and/or content (details
/// returned in the JSON or plain-text payload)".
///
/// Wordings taken from Horizons' answers where this project has one recorded (astroquery's test
/// data `tlist_error.txt`, the VLADD input error quoted in astroquery issue #1201, the date error
/// of issue #1624); the others follow their style and say so in docs/horizons.md.
public struct HorizonsFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The lines Horizons prints.
    public let text: String

    public init(_ text: String) {
        self.text = text.hasSuffix("\n") ? text : text + "\n"
    }

    public var description: String { text }

    /// TLIST without a value (astroquery's `tlist_error.txt`).
    public static let noTList = HorizonsFailure("BATVAR: no TLIST values found (or missing quotes)\nWLDINI: error loading execution-control file.")

    /// An unquoted value with a blank in it, as the batch reader sees `KEY = a b`: the caret under
    /// the second constant (astroquery issue #1201).
    public static func tooManyConstants(_ keyword: String, _ value: String) -> HorizonsFailure {
        let line = "\(keyword) = \(value)"
        let firstBlank = value.firstIndex(where: { $0 == " " || $0 == "\t" }).map { value.distance(from: value.startIndex, to: $0) } ?? 0
        var secondStart = firstBlank
        let chars = Array(value)
        while secondStart < chars.count, chars[secondStart] == " " || chars[secondStart] == "\t" { secondStart += 1 }
        let caret = 1 + keyword.count + 3 + secondStart
        let label = "     Too many constants  "
        let padding = String(repeating: " ", count: max(0, caret - label.count))
        return HorizonsFailure(" INPUT ERROR in VLADD  in following line:\n \(line)\n\(label)\(padding)^\nBATVAR: problem loading execution-control setting:\nLINE=\(line)\nWLDINI: error loading execution-control file.")
    }

    /// A date Horizons cannot read (astroquery issue #1624).
    public static let cannotInterpretDate = HorizonsFailure("Cannot interpret date. Type \"?!\" or try YYYY-Mon-Dy {HH:MM} (or JDxxxxxxx.xxxx)")

    /// A keyword whose value is not one Horizons takes.
    public static func badValue(_ keyword: String, _ value: String, accepted: String) -> HorizonsFailure {
        HorizonsFailure("Cannot interpret \(keyword) = \(value)\n  Allowed: \(accepted)")
    }

    /// Horizons' table-length limit (its `90024 line max`).
    public static func tooLong(_ rows: Int, limit: Int) -> HorizonsFailure {
        HorizonsFailure(" Projected output length (~\(rows)) exceeds \(limit) line max -- change step-size")
    }

    /// A stop before the start.
    public static let stopBeforeStart = HorizonsFailure(" Error in time specification: 'STOP_TIME' must be later than 'START_TIME'")

    /// A step Horizons cannot read.
    public static func badStep(_ value: String) -> HorizonsFailure {
        HorizonsFailure(" Cannot interpret step-size: \(value)\n  Allowed: <integer> {d|h|m|s|y|mo}, or a bare <integer> of equal intervals")
    }
}
