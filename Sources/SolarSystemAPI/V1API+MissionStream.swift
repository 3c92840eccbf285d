import Glibc
import Dispatch
import Ephemeris
import HTTPCore
import Logging
import Missions
import MissionScene
import Synchronization

extension V1API {
    static let maxReplaySpeed = 1e8
    static let replayRates = 1...30

    /// `GET /v1/missions/{id}/stream?speed=&from=&rate=`: the mission replayed as server-sent
    /// events. `telemetry` every 1/rate s, `mission-event` once for each event reached, `end`
    /// when the replay reaches the mission's end (or the server shuts down). Every event has its
    /// own strictly increasing `id:` (``ReplayEventID``); a reconnect with `Last-Event-ID`
    /// delivers every later event exactly once, and one at or past the end gets 204, which stops
    /// a browser's EventSource.
    func missionStream(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["speed", "from", "rate"])
        let scene = try services.missionScene(try ctx.parameters.require("id"))
        let engine = scene.engine
        let speedAccepted = "a number of mission seconds per wall-clock second, > 0 and ≤ 1e8 (default: the mission's autoTimeScale, \(JSONWriter.plain(engine.mission.autoTimeScale)))"
        var speed = engine.mission.autoTimeScale
        if let text = try q.string("speed") {
            guard let s = DecimalNumber.double(text) else { throw ProblemDetails.invalidParameter("speed", value: text, accepted: speedAccepted) }
            guard s > 0, s <= Self.maxReplaySpeed else { throw ProblemDetails.invalidParameter("speed", value: text, accepted: speedAccepted, reason: "out of range") }
            speed = s
        }
        let rate = try q.int("rate", in: Self.replayRates, default: 10)
        let from = try missionTime(q, engine, parameter: "from", defaultHours: 0, range: services.missions.missionHoursRange)
        // Last-Event-ID: the last event the client saw. One that does not parse is ignored and
        // the replay starts at `from`.
        // A mission that flies on replays to the present.
        let end = services.replayEndHours(engine.mission)
        let cursor: ReplayCursor
        if let text = req.headers["last-event-id"], let last = ReplayEventID(text) {
            guard let resumed = ReplayCursor(mission: engine.mission, resumingAfter: last, endHours: end) else { return Self.replayOver() }
            cursor = resumed
        } else {
            guard from <= end else { return Self.replayOver() }
            cursor = ReplayCursor(mission: engine.mission, from: from, endHours: end)
        }
        // The first telemetry is computed here, so a failure is the request's problem (and its
        // status), not a stream that opens and ends at once.
        let first = try engine.telemetry(at: cursor.startHours)
        let counter = services.streams, logger = ctx.logger, replaySpeed = speed, events = services.replayEvents
        return HTTPResponse.eventStream { stream in
            MissionReplay(scene: scene, stream: stream, cursor: cursor, first: first, speed: replaySpeed, rate: rate, counter: counter,
                          events: events, logger: logger).begin()
        }.noStore()
    }

    /// Nothing left to replay: 204 No Content, which ends a browser's EventSource for good
    /// (WHATWG HTML §9.2.3: a 204 fails the connection without reconnecting).
    static func replayOver() -> HTTPResponse {
        HTTPResponse(status: .noContent).noStore()
    }
}

/// One client's replay: ticked by the shared ``ReplayTicker`` (one timer for every replay), it
/// computes the mission time from the wall clock and sends what the ``ReplayCursor`` says is
/// due; the stream ends after `end`. Its state is guarded by a lock, not a serial queue: a
/// ticker worker waiting on 6,000 replays' queues (`sync`) while those queues waited for a
/// worker (their closes, `async`) left 6,000 replays running after their clients had gone.
///
/// Ticks fall on a grid: the k-th tick after the first is at mission time start + k/rate × speed
/// (k from the wall time elapsed, so a late tick catches up rather than drifts). Replays with the
/// same start, speed and rate therefore pass through the same mission times, and their events
/// come formatted from one shared ``ReplayEventCache``.
final class MissionReplay: ReplayTickerClient, @unchecked Sendable {
    let scene: MissionScene
    var engine: MissionEngine { scene.engine }
    let stream: EventStream
    let speed: Double
    let interval: Double
    let counter: StreamCounter
    let events: ReplayEventCache
    let logger: Logger
    let ticker: ReplayTicker
    /// Everything below is touched only with `lock` held (the entry points take it: `begin`,
    /// `tickerFired`, the close and shutdown handlers; nothing they call takes it again).
    private let lock = Mutex(())
    private var cursor: ReplayCursor
    /// The telemetry at the start, computed while the request was answered.
    private var first: MissionTelemetry?
    private var startUptime: UInt64 = 0
    private var scheduledUptime: UInt64 = 0
    private var finished = false
    private var sentFirst = false

    init(scene: MissionScene, stream: EventStream, cursor: ReplayCursor, first: MissionTelemetry, speed: Double, rate: Int, counter: StreamCounter,
         events: ReplayEventCache, logger: Logger, ticker: ReplayTicker = .shared) {
        self.scene = scene
        self.stream = stream
        self.cursor = cursor
        self.first = first
        self.speed = speed
        self.interval = 1 / Double(rate)
        self.counter = counter
        self.events = events
        self.logger = logger
        self.ticker = ticker
    }

    func begin() {
        counter.opened()
        // The stream keeps its handlers until it closes; they hold the replay, which the ticker
        // also holds while a tick is due.
        stream.onClose { _ in self.lock.withLock { _ in self.stop() } }
        stream.onShutdown { self.lock.withLock { _ in self.finish(reason: "shutdown") } }
        let due: UInt64? = lock.withLock { _ in
            guard !finished else { return nil }
            _ = stream.send(retry: 2000)
            // The grid counts from here: the k-th tick is due at start + k × interval, however
            // late the first one came.
            scheduledUptime = DispatchTime.now().uptimeNanoseconds
            return scheduledUptime
        }
        if let due { ticker.schedule(self, atUptimeNanoseconds: due) }
    }

    /// The ticker's call, on a worker: one tick; returns when the next is due (nil: the replay
    /// is over).
    func tickerFired() -> UInt64? {
        lock.withLock { _ in
            tick()
            guard !finished else { return nil }
            return startUptime + UInt64((ticksElapsed() + 1) * interval * 1e9)
        }
    }

    /// The whole intervals of wall time elapsed since the replay began (the 1e-3 keeps a tick
    /// that fires on its deadline to the nanosecond from rounding down).
    private func ticksElapsed() -> Double {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - startUptime) / 1e9
        return (elapsed / interval + 1e-3).rounded(.down)
    }

    /// The mission time now, on the tick grid: start + k × interval × speed, k the
    /// ``ticksElapsed()``.
    private func currentHours() -> Double {
        guard sentFirst else { return cursor.startHours }
        return cursor.startHours + ticksElapsed() * interval * speed / 3600
    }

    private func tick() {
        guard !finished else { return }
        // The first event is the state at the start, however late its tick; the replay clock
        // runs from the replay's start (mission events are never skipped, only ticks).
        let t: Double
        if sentFirst {
            t = currentHours()
        } else {
            sentFirst = true
            startUptime = scheduledUptime
            t = cursor.startHours
        }
        for item in cursor.advance(to: t) {
            do {
                guard try send(item) else { stop(); return }
            } catch {
                logger.error("mission replay failed; ending the stream", metadata: [
                    "mission": "\(engine.mission.id)", "id": "\(item.id)", "error": "\(error)",
                ])
                finish(reason: "error")
                return
            }
        }
        first = nil
    }

    /// Sends one item (telemetry and mission events from the shared cache). False when the
    /// stream is gone.
    private func send(_ item: ReplayCursor.Item) throws -> Bool {
        let id = item.id.description
        switch item {
        case let .telemetry(t, _):
            // A client a quarter of its queue behind (64 KiB, some 40 samples) gets the next
            // sample it can take, not every one: a late tick is skipped, as on a late timer.
            // Mission events and the end always queue; one that never reads is still ended by
            // the write-stall timeout or the queue bound.
            if first == nil, stream.isBehind {
                counter.skipped()
                return stream.isOpen
            }
            let key = ReplayEventCache.Key(mission: engine.mission.id, id: id, hoursBits: t.bitPattern)
            let event = try events.event(key) {
                let telemetry: MissionTelemetry
                if let first, t == cursor.startHours { telemetry = first } else { telemetry = try engine.telemetry(at: t) }
                var w = JSONWriter(capacity: 2048)
                MissionEncoding.telemetry(telemetry, scene: scene, into: &w)
                return FormattedEvent(event: "telemetry", id: id, data: String(decoding: w.bytes, as: UTF8.self))
            }
            return stream.send(event)
        case let .missionEvent(e, _):
            let key = ReplayEventCache.Key(mission: engine.mission.id, id: id, hoursBits: 0)
            return stream.send(events.event(key) { FormattedEvent(event: "mission-event", id: id, data: Self.missionEventData(engine.mission.id, e)) })
        case let .end(t, _):
            _ = stream.send(event: "end", id: id, data: Self.endData(engine.mission.id, t: t, reason: "completed"))
            stream.close()
            stop()
            return true
        }
    }

    static func missionEventData(_ mission: String, _ e: MissionEvent) -> String {
        var w = JSONWriter(capacity: 512)
        w.object { w in
            w.key("mission"); w.string(mission)
            w.key("t"); w.number(e.timeHours)
            w.key("met"); w.string(MissionClock.met(hours: e.timeHours))
            w.key("name"); w.string(e.name)
            w.key("detail"); w.string(e.detail)
            w.key("showLabel"); w.bool(e.showLabel)
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    static func endData(_ mission: String, t: Double, reason: String) -> String {
        var w = JSONWriter(capacity: 128)
        w.object { w in
            w.key("mission"); w.string(mission)
            w.key("t"); w.number(t)
            w.key("reason"); w.string(reason)
        }
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// `end` before the replay is over (the server is shutting down, or a tick failed), then
    /// close. It carries no `id:`, so the client's last event id stays that of the last event it
    /// got and a reconnect resumes right after it.
    private func finish(reason: String) {
        guard !finished else { return }
        let at = min(currentHours(), cursor.endHours)
        _ = stream.send(event: "end", data: Self.endData(engine.mission.id, t: at, reason: reason))
        stream.close()
        stop()
    }

    private func stop() {
        guard !finished else { return }
        finished = true
        counter.closed()
    }
}

/// How many replays are running, and the telemetry ticks skipped for clients behind (for
/// `/metrics`).
public final class StreamCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let skips = Atomic<Int>(0)
    public init() {}
    func opened() { count.add(1, ordering: .relaxed) }
    func closed() { count.subtract(1, ordering: .relaxed) }
    func skipped() { skips.add(1, ordering: .relaxed) }
    public var open: Int { count.load(ordering: .relaxed) }
    public var skippedTicks: Int { skips.load(ordering: .relaxed) }
}
