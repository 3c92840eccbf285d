import Ephemeris
import HTTPCore
import Sky

extension LiveAPI {
    func registerSky(on router: Router) {
        router.plan(.get, "/v1/sky", cost: .compute) { req, _ in try self.current.api.skyPlan(req) }
        router.plan(.get, "/v1/sky/events", cost: .compute) { req, _ in try self.current.api.skyEventsPlan(req) }
        router.plan(.get, "/v1/moon/phases", cost: .compute) { req, _ in try self.current.api.moonPhasesPlan(req) }
        router.plan(.get, "/v1/moon/apsides", cost: .compute) { req, _ in try self.current.api.moonApsidesPlan(req) }
        router.plan(.get, "/v1/seasons", cost: .compute) { req, _ in try self.current.api.seasonsPlan(req) }
    }
}

extension V1API {
    /// The most rows (instants × bodies) one `/v1/sky` series may ask for.
    public static let maxSkyRows = 100_000
    /// The most work one `/v1/sky` series may ask for, in plain rows (a body's place at an
    /// instant, ~10 µs here): a table is refused before its head is sent rather than stopped
    /// mid-stream by the CPU budget (`--request-cpu-limit`, 10 s). 400,000 plain rows are
    /// about 4 s of CPU on the slowest machine measured (docs/benchmarks.md, "Sky").
    public static let maxSkyWork = 400_000
    /// What one row of a `/v1/sky` series costs, in plain rows, rounded up from measurement
    /// (`scripts/bench-sky-table.py`; docs/benchmarks.md): asking any Horizons quantity adds the
    /// geometry they share (4 plain rows; measured 2.3-3.8 with one quantity), each quantity 0.2
    /// more, and the rates (3, 5, 47: a second place a moment later) 3 more (measured 2.3-2.7).
    /// Every computed quantity: 15 (measured 8.9).
    static func skyRowCost(_ quantities: QuantitySet?) -> Double {
        guard let quantities, !quantities.isEmpty else { return 1 }
        return 4 + 0.2 * Double(quantities.count) + (quantities.contains(any: 3, 5, 47) ? 3 : 0)
    }
    /// The most days × bodies one events search may cover.
    public static let maxEventBodyDays = 2 * SkyEngine.maxEventSpanDays

    /// `GET /v1/sky`: the observer's view at `date`, or an observer table over `start`/`stop`/`step`.
    func skyPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(SkyQuery.observerParameters.union(SkyQuery.atmosphereParameters).union(["date", "bodies", "start", "stop", "step", "format", "quantities"]))
        let observer = try SkyQuery.observer(q)
        let atmosphere = try SkyQuery.atmosphere(q)
        let current = services.satellites.current
        var asked = try SkyScene(try SkyTarget.list(q, defaults: SkyEngine.defaultBodies, directory: services.bodyDirectory),
                                 engine: services.engine, catalogue: current.catalogue)
        let quantities = try QuantityEncoding.parse(q)
        if let quantities { asked.computing(quantities, context: horizonsContext, catalogue: current.catalogue) }
        let scene = asked
        let fields = scene.quantities?.fields ?? []
        // The cache key's spelling of the quantities: the set's bits.
        let detail = scene.satelliteDetail + (quantities.map { ";q\($0.bits)" } ?? "")
        let bodies = scene.bodies, targets = scene.targets.count
        let usesElementSets = !scene.satellites.isEmpty || !scene.smallBodies.isEmpty
        let csv = try wantsCSV(req)
        let sky = services.sky
        let contentType = csv ? "text/csv; charset=utf-8" : HTTPResponse.jsonContentType
        let vary: @Sendable (HTTPResponse) -> HTTPResponse = { $0.varying(on: "Accept") }
        let isSeries = q.contains("start") || q.contains("stop") || q.contains("step")
        if !isSeries {
            let (t, freshness) = try q.instant("date", clock: services.clock)
            let key = services.keyed(.sky(SkyKey(route: "sky", instants: [t], observer: observer, atmosphere: atmosphere, bodies: bodies,
                                                 detail: detail, csv: csv)), usesElementSets: usesElementSets)
            return encodedPlan(key.key, freshness: freshness.dependingOnElementSets(usesElementSets), contentType: contentType, finish: vary) {
                let time = sky.time(t)
                let view = try scene.view(sky, from: observer, at: time, atmosphere: atmosphere)
                if csv { return SkyEncoding.csvHeader(fields) + SkyEncoding.csvRows(time, view, fields: fields) }
                var w = JSONWriter(capacity: 4096)
                w.object { w in
                    SkyEncoding.writeTime(time, into: &w)
                    SkyEncoding.writeSetting(observer, atmosphere, model: sky.ephemeris.modelSummary(fromJDTDB: t.jdTDB, toJDTDB: t.jdTDB), into: &w)
                    w.key("bodies"); w.array { w in for p in view { SkyEncoding.write(p, fields: fields, into: &w) } }
                }
                return w.bytes
            }
        }
        // As everywhere in the API, where parameters overlap one decides: the table's; `date` is
        // only validated.
        _ = try q.instant("date", clock: services.clock)
        let series = try SeriesTimes.parse(start: try q.string("start"), stop: try q.string("stop"), step: try q.string("step"), times: nil, clock: services.clock)
        let rows = series.count * targets
        // The rows' cap, lower with quantities (their cost in plain rows).
        let mostRows = min(Self.maxSkyRows, Int(Double(Self.maxSkyWork) / Self.skyRowCost(quantities)))
        guard !series.truncated, rows <= mostRows else {
            let withQuantities = quantities.map { " with \($0.count) quantities (\(Self.maxSkyRows) without them; fewer quantities allow more)" } ?? ""
            throw ProblemDetails.invalidParameter("step", value: try q.string("step") ?? "1d",
                                                  accepted: "a step giving at most \(mostRows) rows (instants × bodies) between start and stop" + withQuantities,
                                                  reason: series.truncated ? "over \(V1API.maxSeriesSamples) instants" : "\(rows) rows")
        }
        // A satellite SGP4 cannot place at either end is a 422 before anything is sent (decay and
        // runaway elements set in and stay); should it fail in between, a streamed table leaves it
        // out of those rows.
        if usesElementSets {
            // (and a small body beyond its trusted span)
            for t in series.count > 0 ? [series.instant(0), series.instant(series.count - 1)] : [] {
                _ = try scene.view(sky, from: observer, at: sky.time(t), atmosphere: atmosphere)
            }
        }
        let streamed = rows > Self.streamingThreshold
        // A row's instant and what is seen then. A failure here (other than one body's, which a
        // streamed table leaves out) ends the table: a streamed one is cut, visibly.
        let view: @Sendable (Int) throws -> (SkyTime, [SkyScene.Row]) = { k in
            try WorkBudget.checkCurrent()
            let time = sky.time(series.instant(k))
            return (time, try scene.view(sky, from: observer, at: time, atmosphere: atmosphere, skippingFailures: streamed))
        }
        let rowBytes = targets * (420 + 40 * fields.count)
        let table: any TableEncoding = csv
            ? CSVTable(header: SkyEncoding.csvHeader(fields), count: series.count) { range in
                var out: [UInt8] = []
                out.reserveCapacity(range.count * rowBytes)
                for k in range {
                    let (time, seen) = try view(k)
                    out += SkyEncoding.csvRows(time, seen, fields: fields)
                }
                return out
            }
            : JSONTable(count: series.count, leading: { w in
                SkyEncoding.writeSetting(observer, atmosphere, model: series.modelSummary(sky.ephemeris), into: &w)
                w.key("count"); w.int(series.count)
            }) { range, document in
                document.reserveCapacity(range.count * rowBytes)
                for k in range {
                    let (time, seen) = try view(k)
                    document.write { w in
                        w.object { w in
                            SkyEncoding.writeTime(time, into: &w)
                            w.key("bodies"); w.array { w in for p in seen { SkyEncoding.write(p, fields: fields, into: &w) } }
                        }
                    }
                }
            }
        let key = SkyKey(route: "sky-series", instants: [series.instant(0)], observer: observer, atmosphere: atmosphere, bodies: bodies,
                         detail: detail, csv: csv)
        if rows <= Self.streamingThreshold {
            let cacheKey = services.keyed(.skySeries(key, series), usesElementSets: usesElementSets)
            return encodedPlan(cacheKey.key, freshness: series.freshness.dependingOnElementSets(usesElementSets), contentType: contentType, finish: vary) {
                try table.whole()
            }
        }
        return Self.streamedPlan(table, chunk: max(1, Self.samplesPerChunk / targets), contentType: contentType,
                                 freshness: series.freshness.dependingOnElementSets(usesElementSets), link: nil, finish: vary)
    }

    /// `GET /v1/sky/events`: rising, setting, transits and twilight over `start`…`stop` (≤ 10
    /// years), and satellites' passes (≤ 31 days of satellites).
    func skyEventsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(SkyQuery.observerParameters.union(["start", "stop", "bodies", "kinds", "minAltitude", "format"]))
        let observer = try SkyQuery.observer(q)
        let current = services.satellites.current
        let scene = try SkyScene(try SkyTarget.list(q, defaults: [.sun, .moon], directory: services.bodyDirectory),
                                 engine: services.engine, catalogue: current.catalogue)
        let bodies = scene.bodies, satellites = scene.satellites
        let (kinds, wantsPasses, seenKinds) = try SkyQuery.kinds(q)
        let minAltitude = try q.double("minAltitude", in: SkyQuery.passMinAltitudeRange, default: SkyEngine.defaultPassMinAltitudeDeg)
        if !satellites.isEmpty, !wantsPasses {
            throw ProblemDetails.invalidParameter("kinds", value: try q.string("kinds") ?? "", accepted: "pass (with other kinds for the other bodies) when bodies names a satellite",
                                                  reason: "a satellite's only events are its passes")
        }
        let (start, stop, freshness, _) = try SkyQuery.span(q, clock: services.clock, defaultDays: 1, maxDays: SkyEngine.maxEventSpanDays)
        // Ten years of the Sun and the Moon are ~50,000 events (7 MB of JSON); every body for ten
        // years would be five times that, held in memory at once: bound days × bodies too.
        let days = stop.seconds(since: start) / 86_400
        let bodyDays = days * Double(bodies.count + scene.smallBodies.count)
        guard bodyDays <= Self.maxEventBodyDays else {
            throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "a span whose days × bodies is at most \(Int(Self.maxEventBodyDays)) (10 years of two bodies)",
                                                  reason: "\(Int(bodyDays)) body-days")
        }
        // A week of ISS passes is ~10,000 SGP4 samples; an element set is worn out within a month.
        let satelliteDays = days * Double(satellites.count)
        guard satelliteDays <= SkyEngine.maxPassSpanDays else {
            throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "a span whose days × satellites is at most \(Int(SkyEngine.maxPassSpanDays)) (a month of one satellite's passes)",
                                                  reason: "\(Int(satelliteDays.rounded(.up))) satellite-days")
        }
        let csv = try wantsCSV(req)
        let sky = services.sky
        let detail = (kinds.map(\.rawValue) + seenKinds.map(\.rawValue)).sorted().joined(separator: ",")
            + (satellites.isEmpty && scene.smallBodies.isEmpty ? "" : ";\(scene.satelliteDetail);\(minAltitude)")
        let stars = seenKinds.contains(.occultation) ? services.occultableStars : []
        let key = services.keyed(.sky(SkyKey(route: "events", instants: [start, stop], observer: observer, atmosphere: nil, bodies: bodies,
                                             detail: detail, csv: csv)), usesElementSets: !satellites.isEmpty || !scene.smallBodies.isEmpty)
        // A small body is checked at both ends of the span (a 422 beyond its trusted span).
        for (id, name) in scene.smallBodies {
            for t in [start, stop] { _ = try services.engine.smallBodyState(id, name: name, model: .nbody, at: t, current: scene.smallBodyFeed) }
        }
        let points = scene.pointSources
        let heavy = stop.seconds(since: start) * Double(bodies.count + scene.smallBodies.count) > 2 * 366 * 86_400
        return encodedPlan(key.key, freshness: freshness.dependingOnElementSets(key.usesElementSets),
                           contentType: csv ? "text/csv; charset=utf-8" : HTTPResponse.jsonContentType,
                           cost: heavy ? .heavy : nil, finish: { $0.varying(on: "Accept") }) {
            var items = sky.events(bodies, points: points.map { ($0.id, $0.heliocentricEclipticAU) }, kinds: kinds, from: observer, start: start, stop: stop).map { SkyEventItem.event($0) }
            for (s, name) in satellites {
                do throws(SkySearchError) {
                    items += try sky.passes(s.propagator, from: observer, start: start, stop: stop, minAltitudeDeg: minAltitude, interrupt: .request)
                        .map { SkyEventItem.pass(name, $0) }
                } catch {
                    switch error {
                    case .propagation(let failure): throw EphemerisService.unpropagatable(s, name: name, at: failure.instant, failure.error)
                    case .interrupted(let stop): throw stop.cause
                    }
                }
            }
            if seenKinds.contains(.solarEclipse) { items += sky.localSolarEclipses(from: observer, start: start, stop: stop).map { SkyEventItem.solarEclipse($0) } }
            if seenKinds.contains(.lunarEclipse) { items += sky.localLunarEclipses(from: observer, start: start, stop: stop).map { SkyEventItem.lunarEclipse($0) } }
            if seenKinds.contains(.occultation) { items += sky.occultations(from: observer, start: start, stop: stop, stars: stars).map { SkyEventItem.occultation($0) } }
            if !satellites.isEmpty || !seenKinds.isEmpty { items.sort { $0.instant < $1.instant } }
            if csv {
                var out = "date,body,kind,azimuth_deg,altitude_deg\n"
                out.reserveCapacity(items.count * 64)
                for item in items { item.csv(into: &out) }
                return Array(out.utf8)
            }
            // ΔT at the start and the end: the Earth's rotation the events were found with.
            let first = sky.time(start), last = sky.time(stop)
            return SkyEncoding.spanList(start: start, stop: stop, truncated: nil, key: "events", items: items, bytesPerItem: 140, head: { w in
                SkyEncoding.writeSetting(observer, nil, model: nil, into: &w)
            }, extra: { w in
                w.key("definitions"); w.string(SkyEncoding.eventDefinitions + (satellites.isEmpty ? "" : SkyEncoding.passDefinitions) + (seenKinds.isEmpty ? "" : SkyEncoding.seenDefinitions))
                if !satellites.isEmpty { w.key("minAltitudeDeg"); w.number(minAltitude) }
                w.key("deltaTSeconds"); w.numbers([SkyEncoding.round6(first.deltaTSeconds), SkyEncoding.round6(last.deltaTSeconds)])
                w.key("ut1MinusUtcSeconds"); w.numbers([SkyEncoding.round6(first.ut1MinusUTCSeconds), SkyEncoding.round6(last.ut1MinusUTCSeconds)])
                w.key("deltaTSource"); w.string(first.deltaTSource == last.deltaTSource ? first.deltaTSource : first.deltaTSource + "; then " + last.deltaTSource)
            }) { item, w in
                item.write(into: &w, satellites: satellites)
            }
        }
    }

    /// `GET /v1/moon/phases`: the quarters over `start`…`stop`, or the Moon's state at `date`.
    func moonPhasesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["date", "start", "stop"])
        let sky = services.sky
        if q.contains("start") || q.contains("stop") {
            _ = try q.instant("date", clock: services.clock)   // only validated: start/stop decide
            let (start, stop, freshness, truncated) = try SkyQuery.span(q, clock: services.clock, defaultDays: 31, maxDays: SkyEngine.maxAlmanacSpanDays, truncating: true)
            let key = SkyKey(route: "phases", instants: [start, stop], observer: nil, atmosphere: nil, bodies: [], detail: "", csv: false)
            return encodedPlan(.sky(key), freshness: freshness, finish: Self.nextLink(req, truncated: truncated, from: stop)) {
                SkyEncoding.spanList(start: start, stop: stop, truncated: truncated, key: "phases", items: sky.moonPhases(start: start, stop: stop), bytesPerItem: 100) { p, w in
                    w.key("quarter"); w.int(p.quarter)
                    w.key("name"); w.string(p.name)
                    w.key("date"); w.string(p.instant.iso8601)
                    w.key("jdTT"); w.number(p.instant.jdTT)
                }
            }
        }
        let (t, freshness) = try q.instant("date", clock: services.clock)
        let key = SkyKey(route: "moon", instants: [t], observer: nil, atmosphere: nil, bodies: [], detail: "", csv: false)
        return encodedPlan(.sky(key), freshness: freshness) {
            let s = sky.moonState(at: t)
            var w = JSONWriter(capacity: 512)
            w.object { w in
                PositionsResult.writeTime(t, into: &w)
                w.key("phaseAngleDeg"); w.number(s.phaseAngleDeg)
                w.key("illuminatedFraction"); w.number(s.illuminatedFraction)
                w.key("longitudeFromSunDeg"); w.number(s.longitudeFromSunDeg)
                w.key("ageDays"); w.number(s.ageDays)
                w.key("name"); w.string(s.name)
            }
            return w.bytes
        }
    }

    /// `GET /v1/moon/apsides`: perigees and apogees over `start`…`stop`.
    func moonApsidesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["start", "stop"])
        let (start, stop, freshness, truncated) = try SkyQuery.span(q, clock: services.clock, defaultDays: 31, maxDays: SkyEngine.maxAlmanacSpanDays, truncating: true)
        let sky = services.sky
        let key = SkyKey(route: "apsides", instants: [start, stop], observer: nil, atmosphere: nil, bodies: [], detail: "", csv: false)
        return encodedPlan(.sky(key), freshness: freshness, finish: Self.nextLink(req, truncated: truncated, from: stop)) {
            SkyEncoding.spanList(start: start, stop: stop, truncated: truncated, key: "apsides", items: sky.moonApsides(start: start, stop: stop), bytesPerItem: 100) { a, w in
                w.key("kind"); w.string(a.kind)
                w.key("date"); w.string(a.instant.iso8601)
                w.key("jdTT"); w.number(a.instant.jdTT)
                w.key("distanceKm"); w.number(SkyEncoding.round3(a.distanceKm))
            }
        }
    }

    /// A span cut at ten years links to the rest (RFC 8288), as a truncated positions series does.
    static func nextLink(_ req: HTTPRequest, truncated: Bool, from stop: Instant) -> @Sendable (HTTPResponse) -> HTTPResponse {
        guard truncated else { return { $0 } }
        let link = link(req, replacing: "start", with: stop.iso8601, rel: "next")
        return { r in
            var r = r
            r.headers.add(name: "Link", value: link)
            return r
        }
    }

    /// The years `/v1/seasons` takes.
    static let seasonYears = (TimeScale.yearRange.lowerBound + 1)...(TimeScale.yearRange.upperBound - 1)

    /// `GET /v1/seasons?year=`: equinoxes, solstices, perihelion and aphelion.
    func seasonsPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["year"])
        let given = try q.int("year", in: Self.seasonYears)
        let year = try given ?? QueryParsing.instant("now", now: services.clock).utc.year
        let sky = services.sky
        let key = SkyKey(route: "seasons", instants: [], observer: nil, atmosphere: nil, bodies: [], detail: "\(year)", csv: false)
        return encodedPlan(.sky(key), freshness: given == nil ? .now : .fixed) {
            let events = try sky.seasons(year: year)
            var w = JSONWriter(capacity: 1024)
            w.object { w in
                w.key("year"); w.int(year)
                w.key("events")
                w.array { w in
                    for e in events {
                        w.object { w in
                            w.key("kind"); w.string(e.kind)
                            w.key("date"); w.string(e.instant.iso8601)
                            w.key("jdTT"); w.number(e.instant.jdTT)
                            w.key("distanceKm"); if let d = e.distanceKm { w.number(SkyEncoding.round3(d)) } else { w.null() }
                        }
                    }
                }
            }
            return w.bytes
        }
    }
}

/// JSON and CSV of the observer's view.
enum SkyEncoding {
    static let eventDefinitions = "rise/set: upper limb on the horizon with 34' of refraction (USNO), Moon topocentric; transit: hour angle 0; twilight: Sun's centre at -6/-12/-18 deg; altitudeDeg refracted (10 C, 1010 hPa)"

    static let earthModel = "IAU 2006 precession, IAU 2000B nutation, GAST from the Earth rotation angle; polar motion from the IERS table where it has it; light time, solar deflection, relativistic aberration"

    @inline(__always) static func round6(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

    /// `{[head…,] start, stop, [extra…,] count, [truncated,] key: [items…]}`, each item an object
    /// `item` fills: the events, phases and apsides answers.
    static func spanList<T>(start: Instant, stop: Instant, truncated: Bool?, key: String, items: [T], bytesPerItem: Int,
                            head: (inout JSONWriter) -> Void = { _ in }, extra: (inout JSONWriter) -> Void = { _ in },
                            item: (T, inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter(capacity: 512 + items.count * bytesPerItem)
        w.object { w in
            head(&w)
            w.key("start"); w.string(start.iso8601)
            w.key("stop"); w.string(stop.iso8601)
            extra(&w)
            w.key("count"); w.int(items.count)
            if let truncated { w.key("truncated"); w.bool(truncated) }
            w.key(key)
            w.array { w in for x in items { w.object { w in item(x, &w) } } }
        }
        return w.bytes
    }
    @inline(__always) static func round3(_ v: Double) -> Double { (v * 1e3).rounded() / 1e3 }

    static func writeTime(_ time: SkyTime, into w: inout JSONWriter) {
        PositionsResult.writeTime(time.instant, into: &w)
        w.key("jdUT1"); w.number(time.jdUT1)
        w.key("deltaTSeconds"); w.number(round6(time.deltaTSeconds))
        w.key("ut1MinusUtcSeconds"); w.number(round6(time.ut1MinusUTCSeconds))
        w.key("deltaTSource"); w.string(time.deltaTSource)
        w.key("polarMotionArcsec")
        if let pole = time.polarMotionArcseconds { w.numbers([round6(pole.x), round6(pole.y)]) } else { w.null() }
    }

    static func writeSetting(_ o: Observer, _ atmosphere: Atmosphere?, model: String?, into w: inout JSONWriter) {
        w.key("observer")
        w.object { w in
            w.key("latDeg"); w.number(o.latitudeDeg)
            w.key("lonDeg"); w.number(o.longitudeDeg)
            w.key("elevationM"); w.number(o.elevationM)
            w.key("ellipsoid"); w.string("WGS84")
        }
        guard let model else { return }
        w.key("refraction")
        if let a = atmosphere {
            w.object { w in
                w.key("temperatureC"); w.number(a.temperatureC)
                w.key("pressureHPa"); w.number(a.pressureHPa)
            }
        } else { w.null() }
        w.key("model"); w.string(model)
        w.key("earthModel"); w.string(earthModel)
    }

    static func write(_ p: SkyPosition, into w: inout JSONWriter, extra: (inout JSONWriter) -> Void = { _ in }) {
        w.object { w in
            w.key("id"); w.string(p.body)
            w.key("raDeg"); w.number(p.raDeg)
            w.key("decDeg"); w.number(p.decDeg)
            w.key("raJ2000Deg"); w.number(p.raJ2000Deg)
            w.key("decJ2000Deg"); w.number(p.decJ2000Deg)
            w.key("azimuthDeg"); w.number(p.azimuthDeg)
            w.key("altitudeDeg"); w.number(p.altitudeDeg)
            w.key("hourAngleDeg"); w.number(p.hourAngleDeg)
            w.key("distanceKm"); w.number(round3(p.distanceKm))
            w.key("lightTimeS"); w.number(round6(p.lightTimeS))
            optional("illuminatedFraction", p.illuminatedFraction.map(round6), into: &w)
            optional("phaseAngleDeg", p.phaseAngleDeg.map(round6), into: &w)
            optional("elongationDeg", p.elongationDeg.map(round6), into: &w)
            optional("magnitude", p.magnitude.map { ($0 * 100).rounded() / 100 }, into: &w)
            optional("angularDiameterArcsec", p.angularDiameterArcsec.map(round3), into: &w)
            extra(&w)
        }
    }

    static func optional(_ name: String, _ v: Double?, into w: inout JSONWriter) {
        w.key(name)
        if let v { w.number(v) } else { w.null() }
    }

    static let csvColumns = "date,jd_tt,delta_t_s,body,ra_deg,dec_deg,ra_j2000_deg,dec_j2000_deg,azimuth_deg,altitude_deg,hour_angle_deg,distance_km,light_time_s,illuminated_fraction,phase_angle_deg,elongation_deg,magnitude,angular_diameter_arcsec,illumination"

    /// The columns, then the quantities' (`quantities=`) in snake_case.
    static func csvHeader(_ fields: [QuantityEncoding.Field]) -> [UInt8] {
        Array((csvColumns + QuantityEncoding.csvHeader(fields) + "\n").utf8)
    }

    /// `illumination`: the satellites' light (`sunlit`, `penumbra`, `umbra`), empty for other bodies;
    /// `quantities`: each row's observer quantities and the fields to print.
    static func csvRows(_ time: SkyTime, _ view: [SkyPosition], illumination: [String],
                        quantities: (values: [ObserverQuantities?], fields: [QuantityEncoding.Field])? = nil) -> [UInt8] {
        var out = ""
        out.reserveCapacity(view.count * (260 + 24 * (quantities?.fields.count ?? 0)))
        let date = time.instant.iso8601, jd = "\(time.instant.jdTT)", dt = "\(round6(time.deltaTSeconds))"
        func opt(_ v: Double?) -> String { v.map { "\($0)" } ?? "" }
        for (i, p) in view.enumerated() {
            out += "\(date),\(jd),\(dt),\(p.body),\(p.raDeg),\(p.decDeg),\(p.raJ2000Deg),\(p.decJ2000Deg),\(p.azimuthDeg),\(p.altitudeDeg),\(p.hourAngleDeg),"
            out += "\(round3(p.distanceKm)),\(round6(p.lightTimeS)),\(opt(p.illuminatedFraction.map(round6))),\(opt(p.phaseAngleDeg.map(round6))),"
            out += "\(opt(p.elongationDeg.map(round6))),\(opt(p.magnitude.map { ($0 * 100).rounded() / 100 })),\(opt(p.angularDiameterArcsec.map(round3))),\(illumination[i])"
            if let quantities { QuantityEncoding.csvCells(quantities.values[i], fields: quantities.fields, into: &out) }
            out += "\n"
        }
        return Array(out.utf8)
    }
}
