import Ephemeris
import HTTPCore
import Satellites
import SmallBodies

extension V1API {
    static let positionsParameters: Set<String> = ["date", "bodies", "frame", "center", "units", "model"]
    static let seriesParameters: Set<String> = ["start", "stop", "step", "times", "frame", "center", "units", "format", "model"]
    /// The most samples one time-series request may ask for.
    public static let maxSeriesSamples = 100_000
    /// The most instants `times=` may list.
    public static let maxSeriesTimes = 1_000
    /// Series up to this many samples are sent whole (encoded once, with an ETag, cached when
    /// fixed); longer ones stream chunked as the client reads.
    static let streamingThreshold = 2_000
    /// Samples per streamed chunk (about 60 KB of JSON: the connection's output window).
    static let samplesPerChunk = 250

    /// `GET /v1/positions`: every (or the listed) body at one instant. Parsed on the loop;
    /// computed and encoded on the worker pool unless a fixed date's answer is cached.
    func positionsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(Self.positionsParameters)
        let date = try q.string("date")
        var parsed = try PositionsQuery.parse(
            date: date, bodies: try q.string("bodies"), frame: try q.string("frame"),
            center: try q.string("center"), units: try q.string("units"), now: services.clock, directory: services.bodyDirectory
        )
        let model = try q.oneOf("model", as: SmallBodyModel.self) ?? .nbody
        // The default list holds no small bodies.
        if parsed.bodiesListed { parsed.bodies = parsed.bodies.map { $0.computed(by: model) } }
        let query = parsed
        // JSON only, but by the same rules: a client that accepts only CSV is told so (406).
        _ = try req.negotiate([HTTPResponse.jsonContentType])
        let engine = services.engine
        let plain = query.bodiesListed || model != .nbody ? ResponseKey.positions(query.instant, query.bodies, query.selection)
            : .positionsOfAll(query.instant, query.selection)
        let key = services.keyed(plain, usesElementSets: query.bodies.contains { $0.isSatellite },
                                 usesSmallBodies: query.bodies.contains { $0.isSmallBody })
        return encodedPlan(key.key, freshness: Freshness(dateParameter: date).dependingOnElementSets(key.usesElementSets),
                           finish: { $0.varying(on: "Accept") }) {
            try engine.positions(query).json()
        }
    }

    /// `GET /v1/positions/{id}`: one body over `start`/`stop`/`step` or the instants in `times`.
    func timeSeriesPlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(Self.seriesParameters)
        let model = try q.oneOf("model", as: SmallBodyModel.self) ?? .nbody
        let id: BodyRef = try services.bodyDirectory.resolve(try ctx.parameters.require("id"), parameter: nil).computed(by: model)
        let selection = try FrameSelection.parse(frame: try q.string("frame"), center: try q.string("center"), units: try q.string("units"))
        let csv = try wantsCSV(req)
        let series = try SeriesTimes.parse(
            start: try q.string("start"), stop: try q.string("stop"), step: try q.string("step"),
            times: try q.string("times"), clock: services.clock
        )
        var header = SeriesHeader(id: id, selection: selection, count: series.count, truncated: series.truncated, model: series.modelSummary(services.ephemeris))
        let engine = services.engine
        // A satellite: one catalogue for the whole series (a reload mid-stream does not mix two
        // element sets), SGP4 checked at the series' ends (and every listed instant) before the
        // first byte, the element set named in the head.
        var sampler: SatelliteSeriesSampler?
        if case let .satellite(norad, name) = id {
            let current = services.satellites.current
            let satellite = try engine.satellite(norad, name: name, in: current.catalogue)
            let probes = series.count == 0 ? [] : series.isListed ? Array(0..<series.count) : [0, series.count / 2, series.count - 1]
            var stale = false
            for k in probes {
                let t = series.instant(k)
                do { _ = try satellite.propagator.icrfState(at: t) } catch { throw EphemerisService.unpropagatable(satellite, name: name, at: t, error) }
                stale = stale || abs(satellite.propagator.minutesSinceEpoch(instant: t) / 1440) > SatelliteAnnotation.staleAfterDays
            }
            header.elementSet = (satellite, EphemerisService.epoch(satellite), stale)
            header.model = EphemerisService.satelliteModel + (selection.center == .earth && selection.frame != .scene ? "" : "; " + header.model)
            sampler = SatelliteSeriesSampler(engine: engine, satellite: satellite, ref: id, catalogue: current.catalogue, selection: selection)
        }
        let pinned = sampler
        // A small body: one catalogue for the whole series, its first, middle and last instants
        // (and every listed one) checked against the trusted span before the first byte.
        if case let .smallBody(sbID, name, m) = id, series.count > 0 {
            let current = services.smallBodies?.current
            let probes = series.isListed ? Array(0..<series.count) : [0, series.count / 2, series.count - 1]
            for k in probes { _ = try engine.smallBodyState(sbID, name: name, model: m, at: series.instant(k), current: current) }
            header.model = EphemerisService.smallBodyModel(m, perturbers: current?.propagator.perturberNumbers ?? [], kernel: services.ephemeris.kernel?.label ?? "no kernel")
                + (selection.center == .sun && !selection.barycentric ? "" : "; " + header.model)
        }
        // A kernel body must be covered over the whole series before the first byte is sent:
        // its first, middle and last instants (and every listed one) are checked here.
        if case let .kernel(naif, name) = id, series.count > 0 {
            let probes = series.isListed ? Array(0..<series.count) : [0, series.count / 2, series.count - 1]
            for k in probes { _ = try engine.kernelState(naif, name: name, at: series.instant(k)) }
            if let bodies = services.bodies as KernelBodies?, !series.isListed {
                let a = series.instant(0).daysSinceJ2000TDB * Constants.secondsPerDay, b = series.instant(series.count - 1).daysSinceJ2000TDB * Constants.secondsPerDay
                if let end = bodies.uncoveredEnd(of: naif, from: a, through: b) {
                    throw EphemerisService.outsideKernels(name, .notCovered(id: naif, seconds: end, spans: bodies.coverage(of: naif)))
                }
            }
        }
        let sampled: @Sendable (Range<Int>) -> [(Instant, PositionEntry)] = { range in
            // One sampler per chunk, so its TEME rotation serves the chunk's neighbouring instants.
            var sampler = pinned
            let entries = range.map { k -> (Instant, PositionEntry) in
                let t = series.instant(k)
                // Checked at the ends above; SGP4 failing in between (a decay) gives NaNs.
                if let e = sampler?.entry(at: t) { return (t, e) }
                // Coverage was checked above; a centre a user kernel leaves out mid-series gives NaNs.
                return (t, (try? engine.sample(id, at: t, selection)) ?? PositionEntry(body: id, position: Vector3(.nan, .nan, .nan), velocity: Vector3(.nan, .nan, .nan),
                                                                                         theory: TheorySpan(name: "none", jdTDB: 0...0)))
            }
            engine.answers.record(entries.lazy.map(\.1))
            return entries
        }
        let table: any TableEncoding = csv
            ? CSVTable(header: SeriesEncoding.csvHeader, count: series.count) { SeriesEncoding.csvRows(sampled($0)) }
            : JSONTable(count: series.count, leading: { SeriesEncoding.writeHead(header, into: &$0) }) { range, document in
                document.write(elements: SeriesEncoding.jsonRows(sampled(range)))
            }
        let contentType = csv ? Self.csvContentType : HTTPResponse.jsonContentType

        // JSON or CSV by `format` or `Accept`: caches must key on Accept too.
        let vary: @Sendable (HTTPResponse) -> HTTPResponse = { $0.varying(on: "Accept") }
        if series.count <= Self.streamingThreshold {
            let key = services.keyed(.series(id, series, selection, csv: csv), usesElementSets: id.isSatellite, usesSmallBodies: id.isSmallBody)
            return encodedPlan(key.key, freshness: series.freshness.dependingOnElementSets(key.usesElementSets), contentType: contentType, finish: vary) {
                try table.whole()
            }
        }
        // A truncated series links to the rest (RFC 8288): the same query from the next instant.
        let next = series.nextStart.map { Self.link(req, replacing: "start", with: $0.iso8601, rel: "next") }
        return Self.streamedPlan(table, chunk: Self.samplesPerChunk, contentType: contentType,
                                 freshness: series.freshness.dependingOnElementSets(id.isSatellite || id.isSmallBody), link: next, finish: vary)
    }

    /// A long table streamed: its head, then its rows `chunk` at a time as the connection drains
    /// (each chunk computed on the worker pool when the connection has room for it), then its
    /// tail. Rows that throw end the body there: the producer rethrows, and the connection logs
    /// the error (with the request id) and closes without the last chunk, so the client sees a
    /// cut body, never a document that merely looks short.
    static func streamedPlan(_ table: any TableEncoding, chunk: Int, contentType: String, freshness: Freshness, link: String?,
                             finish: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> Router.Plan {
        struct Cursor: Sendable {
            var table: any TableEncoding
            var next = -1
            var done = false
        }
        return .offload {
            let producer = BodyProducer(state: Cursor(table: table)) { c in
                if c.done { return nil }
                if c.next < 0 { c.next = 0; return c.table.head() }
                if c.next >= c.table.count {
                    c.done = true
                    let tail = c.table.tail()
                    return tail.isEmpty ? nil : tail
                }
                let end = min(c.table.count, c.next + chunk)
                defer { c.next = end }
                return try c.table.rows(c.next..<end)
            }
            var response = finish(HTTPResponse.stream(contentType: contentType, producer).streamedFreshness(freshness))
            if let link { response.headers.add(name: "Link", value: link) }
            return response
        }
    }

    /// `Link: <path?query>; rel="…"` for this request's path and query with one parameter's
    /// value replaced (or added).
    static func link(_ req: HTTPRequest, replacing name: String, with value: String, rel: String) -> String {
        var pairs = req.query.pairs.filter { $0.name != name }
        pairs.insert((name, value), at: 0)
        let query = pairs.map { QueryEncoding.component($0.name) + "=" + QueryEncoding.component($0.value) }.joined(separator: "&")
        return "<\(req.path)?\(query)>; rel=\"\(rel)\""
    }

    /// The media type CSV answers are sent as.
    static let csvContentType = "text/csv; charset=utf-8"

    /// JSON or CSV: `format=` when given, else the `Accept` fields by RFC 9110 §12.5.1 (JSON
    /// among equals); a 406 problem when neither is acceptable.
    func wantsCSV(_ req: HTTPRequest) throws(ProblemDetails) -> Bool {
        if let f = try req.query.oneOf("format", ["json", "csv"]) { return f == "csv" }
        return try req.negotiate([HTTPResponse.jsonContentType, Self.csvContentType]) == Self.csvContentType
    }
}

struct SeriesHeader {
    let id: BodyRef
    let selection: FrameSelection
    let count: Int
    let truncated: Bool
    var model: String
    /// A satellite's element set, its epoch, and whether any sample lies beyond the staleness limit.
    var elementSet: (satellite: Satellite, epoch: Instant, stale: Bool)?
}

/// The instants of a time series: an arithmetic sequence, or an explicit list.
public struct SeriesTimes: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case stepped(start: Instant, stepSeconds: Double)
        case listed([Instant])
    }
    let kind: Kind
    let count: Int
    let freshness: Freshness
    /// The span held more than ``V1API/maxSeriesSamples`` steps: only the first are answered.
    var truncated = false

    /// Whether the instants were listed (`times=`) rather than stepped.
    var isListed: Bool {
        if case .listed = kind { return true }
        return false
    }

    /// Where the rest of a truncated series starts.
    var nextStart: Instant? { truncated ? instant(count) : nil }

    /// The theories serving the series' span (at the start for an empty one).
    func modelSummary(_ ephemeris: Ephemeris) -> String {
        switch kind {
        case let .stepped(start, _):
            guard count > 0 else { return ephemeris.modelSummary(fromJDTDB: start.jdTDB, toJDTDB: start.jdTDB) }
            return ephemeris.modelSummary(fromJDTDB: instant(0).jdTDB, toJDTDB: instant(count - 1).jdTDB)
        case let .listed(list):
            let jds = list.map(\.jdTDB)
            return ephemeris.modelSummary(fromJDTDB: jds.min() ?? 0, toJDTDB: jds.max() ?? 0)
        }
    }

    func instant(_ k: Int) -> Instant {
        switch kind {
        case let .stepped(start, step): return k == 0 ? start : start.adding(seconds: Double(k) * step)
        case let .listed(list): return list[k]
        }
    }

    static let stepAccepted = "a number of at least 1 ms followed by d, h, m or s (1d, 6h, 30m, 90s, 0.5h, 0.001s)"
    static let defaultStepSeconds = 86_400.0
    /// The finest step a series resolves: its instants are UTC labels held to the millisecond
    /// (``CivilDateTime/init(julianDay:)``), so a finer step would repeat a time.
    static let resolutionSeconds = 0.001

    /// Parses `1d`, `6h`, `30m`, `90s`, `0.5h` into seconds.
    static func stepSeconds(_ text: String) throws(ProblemDetails) -> Double {
        guard let unit = text.last, text.count >= 2, text.count <= 24,
              let value = Double(text.dropLast()), value.isFinite,
              text.dropLast().allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
        else { throw .invalidParameter("step", value: text, accepted: stepAccepted) }
        let seconds: Double
        switch unit {
        case "d": seconds = value * 86_400
        case "h": seconds = value * 3_600
        case "m": seconds = value * 60
        case "s": seconds = value
        default: throw .invalidParameter("step", value: text, accepted: stepAccepted)
        }
        guard seconds > 0 else { throw .invalidParameter("step", value: text, accepted: stepAccepted, reason: "the step must be positive") }
        guard seconds >= resolutionSeconds else {
            throw .invalidParameter("step", value: text, accepted: stepAccepted,
                                    reason: "finer than the series' time resolution, 1 ms (rows would repeat a time)")
        }
        return seconds
    }

    /// The instants of a series request. `times` lists them; otherwise `start` (default `now`),
    /// `start + step`, … up to and including `stop` (default `start`), `step` defaulting to a
    /// day. Every parameter given is validated, even those `times` makes unused. A `stop` before
    /// `start` gives no samples; more than ``V1API/maxSeriesSamples`` are cut there
    /// (``truncated``, and the next start in ``nextStart``).
    static func parse(start: String?, stop: String?, step: String?, times: String?, clock: () -> Double) throws(ProblemDetails) -> SeriesTimes {
        let t0 = try QueryParsing.instant(start, parameter: "start", now: clock)
        let t1 = try stop.map { s throws(ProblemDetails) in try QueryParsing.instant(s, parameter: "stop", now: clock) } ?? t0
        let stepS = try step.map { s throws(ProblemDetails) in try stepSeconds(s) } ?? defaultStepSeconds
        if let times {
            guard times.utf8.count <= V1API.maxSeriesTimes * 40 else {
                throw .invalidParameter("times", value: times, accepted: "at most \(V1API.maxSeriesTimes) comma-separated dates")
            }
            let parts = times.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= V1API.maxSeriesTimes else {
                throw .invalidParameter("times", value: times, accepted: "at most \(V1API.maxSeriesTimes) comma-separated dates", reason: "\(parts.count) given")
            }
            var list: [Instant] = []
            list.reserveCapacity(parts.count)
            var fresh = Freshness.fixed
            for p in parts {
                let s = String(p)
                if s == "now" { fresh = .now }
                list.append(try QueryParsing.instant(s, parameter: "times", now: clock))
            }
            return SeriesTimes(kind: .listed(list), count: list.count, freshness: fresh)
        }
        let spanSeconds = t1.seconds(since: t0)
        // Tolerate rounding so that e.g. 2026-01-01..2026-01-02 at 6h gives 5 samples.
        let intervals = spanSeconds < 0 ? -1 : (spanSeconds / stepS + 1e-6).rounded(.down)
        let truncated = intervals >= Double(V1API.maxSeriesSamples)
        let count = truncated ? V1API.maxSeriesSamples : Int(intervals) + 1
        let fresh: Freshness = (start ?? "now") == "now" || stop == "now" ? .now : .fixed
        return SeriesTimes(kind: .stepped(start: t0, stepSeconds: stepS), count: count, freshness: fresh, truncated: truncated)
    }
}

/// JSON and CSV encodings of a time series, written chunk by chunk.
public enum SeriesEncoding {
    /// A stepped series of `body` encoded the way the server streams it — computed and written
    /// `V1API.samplesPerChunk` samples at a time — for `solarsystem bench snapshot`; returns the
    /// body's length in bytes.
    public static func encodedLength(_ engine: EphemerisService, _ body: BodyID, start: Instant, stepSeconds: Double,
                                     count: Int, csv: Bool) -> Int {
        let selection = FrameSelection()
        var rows = RowsLength(csv: csv)
        for first in stride(from: 0, to: count, by: V1API.samplesPerChunk) {
            let entries = (first..<min(count, first + V1API.samplesPerChunk)).map { k -> (Instant, PositionEntry) in
                let t = k == 0 ? start : start.adding(seconds: Double(k) * stepSeconds)
                return (t, engine.sample(body, at: t, selection))
            }
            rows.add(entries)
        }
        return rows.total
    }

    /// A satellite's stepped series encoded as the server streams it (geocentric ecliptic km,
    /// one element set, chunk by chunk), for `solarsystem bench satellites`; returns the length.
    public static func satelliteEncodedLength(_ engine: EphemerisService, _ ref: BodyRef, start: Instant, stepSeconds: Double,
                                              count: Int, csv: Bool) throws(ProblemDetails) -> Int {
        guard case let .satellite(norad, name) = ref else { return 0 }
        let catalogue = engine.satellites.current.catalogue
        let satellite = try engine.satellite(norad, name: name, in: catalogue)
        var sampler = SatelliteSeriesSampler(engine: engine, satellite: satellite, ref: ref, catalogue: catalogue,
                                             selection: FrameSelection(center: .earth))
        var rows = RowsLength(csv: csv)
        for first in stride(from: 0, to: count, by: V1API.samplesPerChunk) {
            let entries = (first..<min(count, first + V1API.samplesPerChunk)).map { k -> (Instant, PositionEntry) in
                let t = k == 0 ? start : start.adding(seconds: Double(k) * stepSeconds)
                return (t, sampler.entry(at: t))
            }
            rows.add(entries)
        }
        return rows.total
    }

    /// The bytes of a series' rows written chunk by chunk as the server writes them (JSON rows
    /// into an open array, so every chunk after the first starts with its comma).
    private struct RowsLength {
        let csv: Bool
        var document = JSONWriter.Stream()
        var total = 0

        init(csv: Bool) {
            self.csv = csv
            document.openArray()
            _ = document.chunk()
        }

        mutating func add(_ entries: [(Instant, PositionEntry)]) {
            if csv {
                total += SeriesEncoding.csvRows(entries).count
            } else {
                document.write(elements: SeriesEncoding.jsonRows(entries))
                total += document.chunk().count
            }
        }
    }

    static let csvHeader = Array("date,jd_tt,jd_tdb,x,y,z,vx,vy,vz,distance\n".utf8)

    /// The members of a series' object before its `samples`.
    static func writeHead(_ h: SeriesHeader, into w: inout JSONWriter) {
        w.key("id"); w.string(h.id.description)
        PositionsResult.writeSelection(h.selection, into: &w)
        w.key("model"); w.string(h.model)
        w.key("count"); w.int(h.count)
        w.key("truncated"); w.bool(h.truncated)
        if let set = h.elementSet {
            w.key("noradId"); w.int(set.satellite.noradID)
            w.key("name"); if let name = set.satellite.elements.name { w.string(name) } else { w.null() }
            w.key("elementSetEpoch"); w.string(writingASCII: { set.epoch.utc.appendISO8601(to: &$0) })
            w.key("stale"); w.bool(set.stale)
        }
    }

    /// The most bytes one JSON sample takes: its fixed parts (72), a comma, the date and nine numbers.
    static let maxJSONRowBytes = 73 + CivilDateTime.maxISO8601Bytes + 9 * ShortestDouble.maxBytes
    /// The same for a CSV row: the date, nine commas and numbers, the newline.
    static let maxCSVRowBytes = CivilDateTime.maxISO8601Bytes + 9 * (1 + ShortestDouble.maxBytes) + 1

    /// The samples `rows` as elements of the `samples` array, separated by commas (the comma
    /// before the first is `JSONWriter.Stream.write(elements:)`'s to place):
    /// `{date, jdTT, jdTDB, position, velocity, distance}` — the bytes `PositionsResult.writeTime`
    /// and `writeVectors` write through a `JSONWriter` (a test holds them equal), laid out from
    /// fixed parts straight into the chunk's buffer.
    static func jsonRows(_ rows: [(Instant, PositionEntry)]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rows.count * maxJSONRowBytes) { buffer, count in
            guard let start = buffer.baseAddress else { count = 0; return }
            var p = start
            func put(_ s: StaticString) {
                p.update(from: s.utf8Start, count: s.utf8CodeUnitCount)
                p += s.utf8CodeUnitCount
            }
            func value(_ s: StaticString, _ v: Double) {
                put(s)
                p += JSONWriter.writeNumber(v, to: p)
            }
            for (k, (t, e)) in rows.enumerated() {
                if k > 0 { put(",") }
                put(#"{"date":""#)
                p += t.utc.writeISO8601(to: p)
                value(#"","jdTT":"#, t.jdTT)
                value(#","jdTDB":"#, t.jdTDB)
                value(#","position":["#, e.position.x); value(",", e.position.y); value(",", e.position.z)
                value(#"],"velocity":["#, e.velocity.x); value(",", e.velocity.y); value(",", e.velocity.z)
                value(#"],"distance":"#, e.distance)
                put("}")
            }
            count = p - start
        }
    }

    /// CSV rows, each number as `description` spells it (as string interpolation did).
    static func csvRows(_ rows: [(Instant, PositionEntry)]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: rows.count * maxCSVRowBytes) { buffer, count in
            guard let start = buffer.baseAddress else { count = 0; return }
            var p = start
            func field(_ v: Double) {
                p[0] = UInt8(ascii: ",")
                p += 1 + ShortestDouble.write(v, to: p + 1)
            }
            for (t, e) in rows {
                p += t.utc.writeISO8601(to: p)
                field(t.jdTT); field(t.jdTDB)
                field(e.position.x); field(e.position.y); field(e.position.z)
                field(e.velocity.x); field(e.velocity.y); field(e.velocity.z)
                field(e.distance)
                p[0] = UInt8(ascii: "\n")
                p += 1
            }
            count = p - start
        }
    }
}

/// Percent-encoding of query components (RFC 3986 §3.4): everything but the unreserved
/// characters and the sub-delimiters a query value may hold unencoded (`:` `,` `@`).
enum QueryEncoding {
    static func component(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "@"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
