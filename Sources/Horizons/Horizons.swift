import Ephemeris
import Sky
import SmallBodies

/// One Horizons answer, before its envelope: a text Horizons prints whole (a list of matching
/// bodies, the object data alone), a table (its head, rows computed on demand in chunks, its
/// tail: what the API streams), an SPK file, or a refusal in Horizons' words.
public enum HorizonsAnswer: Sendable {
    case text(String)
    case table(HorizonsTable)
    case spk(SPKExport, fileID: String)
    case failure(HorizonsFailure)
}

/// A table: everything up to `$$SOE`, the rows `0..<rowCount` (each chunk computed when asked
/// for, never all held; rows a cut-off removes print nothing), and what follows `$$EOE`.
public struct HorizonsTable: Sendable {
    public let head: String
    public let rowCount: Int
    public let tail: String
    let makeRows: @Sendable (Range<Int>) throws(Interruption) -> [UInt8]

    /// The rows of `range`, formatted.
    public func rows(_ range: Range<Int>) throws(Interruption) -> [UInt8] { try makeRows(range) }

    /// The whole table as one text (tests, small answers).
    public func text() throws(Interruption) -> String {
        String(decoding: Array(head.utf8) + (try rows(0..<rowCount)) + Array(tail.utf8), as: UTF8.self)
    }
}

/// The Horizons API dialect: ``answer(_:context:)`` turns a request's parameters into what
/// JPL's Horizons would print for them, from this server's ephemerides.
///
/// ```swift
/// let p = try HorizonsParameters([("format", "text"), ("COMMAND", "'499'"), ("EPHEM_TYPE", "VECTORS"),
///                                 ("CENTER", "'500@10'"), ("START_TIME", "'2026-01-01'"), ("STOP_TIME", "'2026-01-02'"),
///                                 ("STEP_SIZE", "'1 h'")])
/// if case let .table(t) = Horizons.answer(p, context: context) { print(try t.text()) }
/// ```
public enum Horizons {
    /// The API version whose documentation this dialect follows.
    public static let apiVersion = "1.2"
    /// What the API's signature names; kept as JPL's so parsers that check it read the answer
    /// (the header's `Ephemeris` line and the footer say which server computed it).
    public static let apiSource = "NASA/JPL Horizons API"

    /// The lines the API puts before Horizons' own text (`format=text`).
    public static var textPreamble: String { "API VERSION: \(apiVersion)\nAPI SOURCE: \(apiSource)\n\n" }

    public static func answer(_ parameters: HorizonsParameters, context: HorizonsContext) -> HorizonsAnswer {
        do {
            let settings = try HorizonsSettings(parameters)
            return try answer(settings, context: context)
        } catch {
            return .failure(error)
        }
    }

    static func answer(_ s: HorizonsSettings, context c: HorizonsContext) throws(HorizonsFailure) -> HorizonsAnswer {
        let target: HorizonsBody
        switch c.lookup(HorizonsCommand.parse(s.command)) {
        case let .listing(text): return .text(text)
        case let .body(b): target = b
        }
        let objectData = s.objectData ? HorizonsHeader.objectData(target, context: c) : ""
        guard s.makeEphemeris else { return .text(objectData.isEmpty ? HorizonsText.rule + "\n" : objectData) }
        switch s.type {
        case .approach:
            throw HorizonsFailure(" EPHEM_TYPE = APPROACH (close-approach tables) is not produced by this server; GET /v1/close-approaches gives them")
        case .spk:
            return try spk(s, target: target, context: c)
        case .vectors, .elements, .observer:
            let center = try c.center(s.center, siteCoord: s.siteCoord, coordType: s.coordType)
            if center.body.id == target.id, center.observer == nil {
                throw HorizonsFailure(" Cannot tabulate \(target.targetName) relative to itself: choose another CENTER")
            }
            let times = try HorizonsTimes(s, now: c.now())
            try c.checkCoverage(target, center: center, times: times)
            switch s.type {
            case .vectors: return .table(HorizonsVectors.table(s, target: target, center: center, times: times, objectData: objectData, context: c))
            case .elements: return .table(try HorizonsElements.table(s, target: target, center: center, times: times, objectData: objectData, context: c))
            default: return .table(try HorizonsObserver.table(s, target: target, center: center, times: times, objectData: objectData, context: c))
            }
        }
    }

    static func spk(_ s: HorizonsSettings, target: HorizonsBody, context c: HorizonsContext) throws(HorizonsFailure) -> HorizonsAnswer {
        guard let startText = s.start, let stopText = s.stop else {
            throw HorizonsFailure(" EPHEM_TYPE = SPK needs START_TIME and STOP_TIME")
        }
        guard let (a, _, _) = HorizonsTimeParser.parse(startText, gregorianOnly: s.gregorianOnly),
              let (b, _, _) = HorizonsTimeParser.parse(stopText, gregorianOnly: s.gregorianOnly),
              let ta = HorizonsTimeParser.instant(jd: a, scale: .tdb), let tb = HorizonsTimeParser.instant(jd: b, scale: .tdb) else {
            throw HorizonsFailure.cannotInterpretDate
        }
        guard tb > ta else { throw HorizonsFailure.stopBeforeStart }
        // Horizons' SPK files hold a small body relative to the Sun; other bodies are written
        // relative to the solar-system barycentre.
        let center = target.kind == .smallBody ? 10 : 0
        guard let centerBody = c.majorBody(center) else { throw HorizonsFailure(" No centre body") }
        let span = ta.daysSinceJ2000TDB * Constants.secondsPerDay...tb.daysSinceJ2000TDB * Constants.secondsPerDay
        do {
            let export = try SPKExport.plan([SPKExport.Request(body: target, center: centerBody)], span: span, kind: .automatic, context: c)
            let id = String(target.id)
            return .spk(export, fileID: id)
        } catch {
            throw HorizonsFailure(" Cannot write the SPK file: \(error.description)")
        }
    }
}

extension HorizonsContext {
    /// Horizons' "No ephemeris for target" when a table runs outside what places the target or
    /// the centre.
    func checkCoverage(_ target: HorizonsBody, center: HorizonsCenter, times: HorizonsTimes) throws(HorizonsFailure) {
        for body in [target, center.body] {
            guard let spans = body.coverage else { continue }
            for k in [0, times.count - 1] + (spans.count > 1 ? Array(0..<times.count) : []) {
                guard let e = times.epoch(k) else { continue }
                let s = e.instant.daysSinceJ2000TDB * Constants.secondsPerDay
                if spans.contains(where: { $0.contains(s) }) { continue }
                let before = spans.first.map { s < $0.lowerBound } ?? true
                let edge = spans.isEmpty ? s : (before ? spans[0].lowerBound : spans[spans.count - 1].upperBound)
                let when = HorizonsEpoch(TimeScale.instant(tdbSecondsPastJ2000: edge), scale: .tdb)
                let date = HorizonsCalendar.format(when, secondDecimals: 4, era: .words, gregorianOnly: false).uppercased()
                if spans.isEmpty {
                    throw HorizonsFailure(" No ephemeris for target \"\(body.name)\": nothing places it (no planetary kernel for the integration)")
                }
                throw HorizonsFailure(" No ephemeris for target \"\(body.name)\" \(before ? "prior to" : "after") \(date) TDB")
            }
        }
        // A small body integrated now, so the rows only read its path (and a failure is the
        // answer, not a row of n.a.).
        if target.kind == .smallBody, times.count > 0, let p = propagator, let b = target.smallBody {
            for k in [0, times.count - 1] {
                guard let e = times.epoch(k) else { continue }
                do {
                    _ = try p.heliocentricState(b, atSeconds: e.instant.daysSinceJ2000TDB * Constants.secondsPerDay,
                                                shouldStop: { (try? interrupt.check()) == nil })
                } catch {
                    throw HorizonsFailure(" No ephemeris for target \"\(target.name)\": \(error.description)")
                }
            }
        }
    }
}
