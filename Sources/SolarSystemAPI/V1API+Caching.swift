import Ephemeris
import HTTPCore
import Missions
import Sky

/// What a cached answer depends on: the parsed, canonical query (so `date=2026-11-22` and
/// `date=2026-11-22T00:00:00Z` share an entry, and parameter order or percent-encoding do not
/// matter). The data and engine are fixed for the process's life, so they are not part of it —
/// except the element sets, which a reload replaces: answers that use them are keyed under
/// ``elementSets(generation:_:)`` by the feed's generation.
public indirect enum ResponseKey: Hashable, Sendable {
    case elementSets(generation: Int, ResponseKey)
    /// An answer computed from the small-body element files, keyed by their generation.
    case smallBodies(generation: Int, ResponseKey)
    case closeApproaches(body: String?, center: BodyID, start: Instant, stop: Instant, maxDistanceAU: Double)
    case positions(Instant, [BodyRef], FrameSelection)
    /// Every body the server knows (no `bodies`, n-body small bodies): the same answer as
    /// `positions` with the default list, keyed without hashing that list on every request.
    case positionsOfAll(Instant, FrameSelection)
    case series(BodyRef, SeriesTimes, FrameSelection, csv: Bool)
    case rotations(Instant, [BodyID], equatorial: Bool)
    case scene(Instant)
    /// The scene with the listed small bodies (their names as asked).
    case smallBodyScene(Instant, [String])
    case orbits(Instant, [BodyID], samples: Int)
    case stars(maxMagnitude: Double, named: Bool, csv: Bool)
    case trajectory(TrajectoryBodyKey)
    case view(ViewCacheKey)
    case sky(SkyKey)
    case skySeries(SkyKey, SeriesTimes)
    case eclipses(EclipseKey)
}

extension V1API {
    /// The plan of a route whose answer is computed and encoded off the loop, and cached when it
    /// is fixed: on a hit the encoded answer is sent from the loop; on a miss `compute` runs on
    /// the worker pool (unless an earlier request for the same key filled the cache meanwhile),
    /// its bytes are encoded once (gzip variant, ETag) and, for fixed answers that fit, kept.
    ///
    /// `cost` names the worker lane when this request is dearer (or cheaper) than its route's
    /// usual: the heavy lane never takes every thread, so long computations cannot hold up the
    /// short ones queued behind them.
    func encodedPlan(
        _ key: ResponseKey, freshness: Freshness, contentType: String = HTTPResponse.jsonContentType,
        cost: Router.Cost? = nil, finish: @escaping @Sendable (HTTPResponse) -> HTTPResponse = { $0 },
        compute: @escaping @Sendable () throws -> [UInt8]
    ) -> Router.Plan {
        let cacheable = freshness != .now
        // One miss per computed answer (`recordMiss` below), not one per look.
        if cacheable, let hit = services.responses.lookUp(key) {
            // A hit is replayed (on routes that replay) while the cache keeps this body under the
            // key and no reload of the element sets or small bodies made the key another one; a
            // kernel reload empties the cache. Each replay is a hit of the cache. The condition
            // holds the cache and the feeds (which outlive reloads), not these services: a kept
            // answer must not keep a replaced kernel mapped.
            let generations = services.dataGenerations
            let responses = services.responses, satellites = services.satellites, smallBodies = services.smallBodies
            return .respond(finish(freshness.apply(HTTPResponse(encoded: hit))).replayable {
                APIServices.dataGenerations(satellites, smallBodies) == generations && responses.lookUp(key) === hit
            })
        }
        let responses = services.responses
        return .offload(cost: cost) {
            // Requests that missed together queue together: by the time this one runs, an earlier
            // one may have computed the answer. Look again before computing it once more.
            if cacheable, let hit = responses.lookUp(key) {
                return finish(freshness.apply(HTTPResponse(encoded: hit)))
            }
            if cacheable { responses.recordMiss() }
            let body = EncodedBody(bytes: try compute(), contentType: contentType)
            if cacheable { responses.insert(body, for: key) }
            return finish(freshness.apply(HTTPResponse(encoded: body)))
        }
    }
}

extension HTTPResponse {
    /// A body encoded once at start-up (catalogue, missions, the spec): revalidated hourly.
    static func catalogue(_ body: EncodedBody) -> HTTPResponse {
        HTTPResponse(encoded: body).cacheable(maxAge: 3600)
    }
}

extension APIServices {
    /// `key` as the cache must hold it: under the element sets' generation when the answer uses
    /// them, so an answer computed before a reload is never served after it.
    func keyed(_ key: ResponseKey, usesElementSets: Bool, usesSmallBodies: Bool = false) -> (key: ResponseKey, usesElementSets: Bool) {
        var key = key
        if usesSmallBodies { key = .smallBodies(generation: smallBodies?.current.generation ?? 0, key) }
        return usesElementSets ? (.elementSets(generation: satellites.current.generation, key), true) : (key, usesSmallBodies)
    }

    /// The generations of the files a reload replaces while the server runs (element sets,
    /// small bodies): an answer kept for replay is replayed only while they are the same.
    var dataGenerations: DataGenerations { Self.dataGenerations(satellites, smallBodies) }

    static func dataGenerations(_ satellites: SatelliteFeed, _ smallBodies: SmallBodyFeed?) -> DataGenerations {
        DataGenerations(elementSets: satellites.current.generation, smallBodies: smallBodies?.current.generation ?? 0)
    }

    struct DataGenerations: Equatable, Sendable {
        let elementSets: Int
        let smallBodies: Int
    }

    /// Whether the engine's `iss` comes from SGP4 (an element set for NORAD 25544 was loaded).
    var issFromElementSets: Bool { engine.ephemeris.issFromElementSets }
}
