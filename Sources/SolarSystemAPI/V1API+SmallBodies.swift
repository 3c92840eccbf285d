import Ephemeris
import HTTPCore
import SmallBodies

extension V1API {
    static let bodiesParameters: Set<String> = ["kind", "q", "limit", "offset"]
    static let closeApproachParameters: Set<String> = ["body", "center", "start", "stop", "maxDistanceAU"]
    /// The most bodies one small-body search answer lists.
    static let maxSearchLimit = 1_000
    /// Close approaches over every loaded body integrate at most this many candidates (those
    /// whose orbits can come within the distance of the centre's); beyond it, name a body.
    static let maxCloseApproachCandidates = 200
    /// The longest close-approach search, years.
    static let maxCloseApproachYears = 200.0

    /// `GET /v1/bodies`: the engine's catalogue; with `kind=small-body`, the loaded asteroids and
    /// comets whose number, designation or name contains `q`, paged by `limit` and `offset`.
    func bodiesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(Self.bodiesParameters)
        let kind = try q.oneOf("kind", ["small-body", "asteroid", "comet", "major"])
        guard let kind, kind != "major" else {
            for name in ["q", "limit", "offset"] where q.contains(name) {
                throw ProblemDetails.invalidParameter(name, value: try q.string(name) ?? "", accepted: "only with kind=small-body, asteroid or comet")
            }
            return .respond(.catalogue(bodiesBody))
        }
        let text = try q.string("q") ?? ""
        guard text.utf8.count <= 64 else { throw ProblemDetails.invalidParameter("q", value: text, accepted: "at most 64 characters") }
        let limit = try q.int("limit", in: 1...Self.maxSearchLimit, default: 100)
        let offset = try q.int("offset", in: 0...10_000_000, default: 0)
        guard let feed = services.smallBodies else {
            return .respond(HTTPResponse.json(Self.searchJSON([], total: 0, offset: offset, limit: limit, current: nil, directory: services.bodyDirectory)).noStore())
        }
        let filter: SmallBody.Kind? = kind == "asteroid" ? .asteroid : kind == "comet" ? .comet : nil
        let directory = services.bodyDirectory
        return .offload {
            let current = feed.current
            let (handles, total) = current.catalogue.search(text, kind: filter, offset: offset, limit: limit)
            return HTTPResponse.json(Self.searchJSON(handles, total: total, offset: offset, limit: limit, current: current, directory: directory))
                .cacheable(maxAge: Freshness.elementSetMaxAgeSeconds)
        }
    }

    static func searchJSON(_ handles: [SmallBodyCatalogue.Handle], total: Int, offset: Int, limit: Int, current: SmallBodyFeed.Current?,
                           directory: BodyDirectory) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + handles.count * 256)
        w.object { w in
            w.key("total"); w.int(total)
            w.key("offset"); w.int(offset)
            w.key("limit"); w.int(limit)
            w.key("count"); w.int(handles.count)
            w.key("bodies")
            w.array { w in
                if let current { for h in handles { SmallBodyEncoding.write(h, current: current, directory: directory, detail: false, into: &w) } }
            }
        }
        return w.bytes
    }

    /// `GET /v1/bodies/sb:…` (or a small body's name slug): the elements as loaded, their epoch
    /// and source, H/G or M1/K1, the orbit class, the span the integration is trusted over.
    func smallBodyDetail(_ text: String) throws(ProblemDetails) -> HTTPResponse? {
        var ref = services.bodyDirectory.smallBody(text)
        if ref == nil, text.hasPrefix("sb:") { ref = try services.bodyDirectory.resolve(text, parameter: nil) }
        guard case let .smallBody(id, _, _)? = ref, let feed = services.smallBodies else { return nil }
        let current = feed.current
        guard let h = current.catalogue.resolve(id) else { return nil }
        var w = JSONWriter(capacity: 2048)
        SmallBodyEncoding.write(h, current: current, directory: services.bodyDirectory, detail: true, into: &w)
        return HTTPResponse.json(w.bytes).cacheable(maxAge: Freshness.elementSetMaxAgeSeconds)
    }

    /// `GET /v1/close-approaches?body=&center=&start=&stop=&maxDistanceAU=`: the minima of the
    /// distance to `center` (default the Earth) of one body, or of every loaded body whose orbit
    /// can come that close, between `start` and `stop`, as JPL's close-approach data lists them.
    func closeApproachesPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(Self.closeApproachParameters)
        let centerName = try q.string("center") ?? "earth"
        let accepted = CloseApproachSearch.centers.keys.map(\.rawValue).sorted().joined(separator: ", ")
        guard let center = BodyID(rawValue: centerName), CloseApproachSearch.centers[center] != nil else {
            throw ProblemDetails.invalidParameter("center", value: centerName, accepted: accepted)
        }
        let start = try QueryParsing.instant(try q.require("start", accepted: TimeScale.acceptedFormats), parameter: "start", now: services.clock)
        let stop = try QueryParsing.instant(try q.require("stop", accepted: TimeScale.acceptedFormats), parameter: "stop", now: services.clock)
        guard stop > start else { throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "a date after start") }
        guard stop.seconds(since: start) <= Self.maxCloseApproachYears * 365.25 * 86_400 else {
            throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "at most \(Int(Self.maxCloseApproachYears)) years after start")
        }
        let maxAU = try q.double("maxDistanceAU", in: 1e-6...10, default: 0.05)
        guard let feed = services.smallBodies else { throw ProblemDetails.unknownId("body", id: try q.string("body") ?? "", parameter: "body", valid: []) }
        var named: (id: String, name: String)?
        if let name = try q.string("body") {
            guard case let .smallBody(id, _, _) = try services.bodyDirectory.resolve(name, parameter: "body") else {
                throw ProblemDetails.invalidParameter("body", value: name, accepted: "an asteroid or comet: sb:<number>, sb:<designation> or a name (GET /v1/bodies?kind=small-body)")
            }
            named = (id, name)
        }
        let only = named
        let current = feed.current
        let raw = [try q.string("start"), try q.string("stop")]
        let freshness: Freshness = raw.contains("now") ? .now : .elementSets
        let key = ResponseKey.smallBodies(generation: current.generation,
                                          .closeApproaches(body: only?.id, center: center, start: start, stop: stop, maxDistanceAU: maxAU))
        let kernel = services.ephemeris.kernel
        return encodedPlan(key, freshness: freshness) {
            try Self.closeApproaches(only: only, center: center, start: start, stop: stop, maxAU: maxAU, current: current, kernel: kernel)
        }
    }

    static func closeApproaches(only: (id: String, name: String)?, center: BodyID, start: Instant, stop: Instant, maxAU: Double,
                                current: SmallBodyFeed.Current, kernel: PlanetaryKernel?) throws(ProblemDetails) -> [UInt8] {
        guard let kernel else { throw ProblemDetails(status: .unprocessableContent, title: "No planetary kernel", detail: SmallBodyError.noKernel.description) }
        let a = start.daysSinceJ2000TDB * Constants.secondsPerDay, b = stop.daysSinceJ2000TDB * Constants.secondsPerDay
        let c = current.catalogue
        var candidates: [(SmallBodyCatalogue.Handle, String)] = []
        if let only {
            guard let h = c.resolve(only.id) else { throw ProblemDetails.unknownId("body", id: only.name, parameter: "body", valid: []) }
            candidates = [(h, only.name)]
        } else {
            // Orbits that can come within maxAU of the centre's range of heliocentric distance.
            let sun = kernel.barycentricState(.sun, secondsPastJ2000: a)
            let s = kernel.barycentricState(center == .moon ? .earth : center, secondsPastJ2000: a)
            let orbit = OsculatingOrbit(position: (s.positionKm - sun.positionKm) / Constants.auKm,
                                        velocity: (s.velocityKmS - sun.velocityKmS) * (Constants.secondsPerDay / Constants.auKm),
                                        mu: GravitationalParameter.sunAU3PerDay2)
            let lo = orbit.semiMajorAxis * (1 - orbit.eccentricity) - maxAU - 0.01, hi = orbit.semiMajorAxis * (1 + orbit.eccentricity) + maxAU + 0.01
            let (all, _) = c.search("", offset: 0, limit: c.count)
            for h in all {
                let e = c.body(h).elements
                let q = e.perihelionAU, big = e.aphelionAU ?? .infinity
                guard q <= hi, big >= lo else { continue }
                candidates.append((h, c.id(h)))
                guard candidates.count <= maxCloseApproachCandidates else {
                    throw ProblemDetails(status: .unprocessableContent, title: "Too many candidates",
                                         detail: "more than \(maxCloseApproachCandidates) loaded bodies can come within \(maxAU) AU of \(center.rawValue): name one with body=, or lower maxDistanceAU")
                }
            }
        }
        var found: [(CloseApproach, String)] = []
        var skipped: [String] = []
        for (h, name) in candidates {
            let body = c.body(h)
            do {
                // Each integration stops between steps when the request should (WorkBudget).
                let path = try current.propagator.path(body, from: a, to: b, shouldStop: { WorkBudget.current?.stopProblem() != nil })
                for ca in CloseApproachSearch.find(path, center: center, from: a, to: b, maxDistanceKm: maxAU * Constants.auKm, kernel: kernel) {
                    found.append((ca, name))
                }
            } catch {
                if error == .stopped, let stop = WorkBudget.current?.stopProblem() { throw stop }
                if only != nil { throw EphemerisService.smallBodyProblem(error, name: name) }
                skipped.append(name)
            }
        }
        found.sort { $0.0.seconds < $1.0.seconds }
        var w = JSONWriter(capacity: 512 + found.count * 300)
        w.object { w in
            w.key("center"); w.string(center.rawValue)
            w.key("start"); w.string(writingASCII: { start.utc.appendISO8601(to: &$0) })
            w.key("stop"); w.string(writingASCII: { stop.utc.appendISO8601(to: &$0) })
            w.key("maxDistanceAU"); w.number(maxAU)
            w.key("model"); w.string(EphemerisService.smallBodyModel(.nbody, perturbers: current.propagator.perturberNumbers, kernel: kernel.label))
            w.key("bodiesSearched"); w.int(candidates.count - skipped.count)
            if !skipped.isEmpty {
                w.key("notSearched")
                w.array { w in for s in skipped { w.string(s) } }
            }
            w.key("count"); w.int(found.count)
            w.key("approaches")
            w.array { w in for (ca, name) in found { SmallBodyEncoding.write(ca, body: name, into: &w) } }
        }
        return w.bytes
    }
}
