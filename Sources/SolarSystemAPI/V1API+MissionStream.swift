#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Ephemeris
import HTTP
import Missions
import Synchronization

extension V1API {
    static let maxReplaySpeed = 1e8
    static let replayRates = 1...30

    /// `GET /v1/missions/{id}/stream?speed=&from=&rate=`: the mission replayed as server-sent
    /// events. `telemetry` every 1/rate s, `mission-event` once for each event crossed, `end`
    /// when the replay reaches the mission's end (or the server shuts down). `id:` is the MET in
    /// milliseconds; a reconnect with `Last-Event-ID` resumes there without repeating events.
    func missionStream(_ req: HTTPRequest, _ ctx: RequestContext) throws -> HTTPResponse {
        let q = req.query
        try q.rejectUnknown(["speed", "from", "rate"])
        let engine = try services.missionEngine(try ctx.parameters.require("id"))
        let speedAccepted = "a number of mission seconds per wall-clock second, > 0 and ≤ 1e8 (default: the mission's autoTimeScale, \(JSONWriter.plain(engine.mission.autoTimeScale)))"
        var speed = engine.mission.autoTimeScale
        if let text = try q.string("speed") {
            guard let s = DecimalNumber.double(text) else { throw ProblemDetails.invalidParameter("speed", value: text, accepted: speedAccepted) }
            guard s > 0, s <= Self.maxReplaySpeed else { throw ProblemDetails.invalidParameter("speed", value: text, accepted: speedAccepted, reason: "out of range") }
            speed = s
        }
        let rate = try q.int("rate", in: Self.replayRates, default: 10)
        let from = try missionTime(q, engine, parameter: "from", defaultHours: 0)
        // Last-Event-ID: the MET in ms of the last event the client saw; anything else (not a
        // number, outside the mission) is ignored and the replay starts at `from`.
        var start = from, resumed = false
        if let last = req.headers["last-event-id"], let ms = Int64(last.filter { $0 != " " && $0 != "\t" }) {
            let t = Double(ms) / 3_600_000
            if (0...engine.mission.replayEndHours).contains(t) { start = t; resumed = true }
        }
        let counter = services.streams
        let (startHours, isResume, replaySpeed) = (start, resumed, speed)
        return HTTPResponse.eventStream { stream in
            MissionReplay(engine: engine, stream: stream, startHours: startHours, resumed: isResume, speed: replaySpeed, rate: rate, counter: counter).begin()
        }.noStore()
    }
}

/// One client's replay: a timer on its own serial queue computes the mission time from the
/// wall clock, sends telemetry and the events crossed, and ends the stream at the mission's end.
final class MissionReplay: @unchecked Sendable {
    let engine: MissionEngine
    let stream: EventStream
    let startHours: Double
    let speed: Double
    let interval: Double
    let counter: StreamCounter
    /// Everything below is touched only on `queue`.
    private let queue: DispatchQueue
    private var detector: MissionEventDetector
    private var timer: DispatchSourceTimer?
    private var startUptime: UInt64 = 0
    private var finished = false
    private var sentFirst = false

    init(engine: MissionEngine, stream: EventStream, startHours: Double, resumed: Bool, speed: Double, rate: Int, counter: StreamCounter) {
        self.engine = engine
        self.stream = stream
        self.startHours = startHours
        self.speed = speed
        self.interval = 1 / Double(rate)
        self.counter = counter
        queue = DispatchQueue(label: "mission-replay", target: .global())
        detector = MissionEventDetector(events: engine.mission.events, startingAt: startHours)
        if resumed {
            // The client saw everything up to its Last-Event-ID, events at that instant included.
            _ = detector.advance(to: startHours)
        }
    }

    func begin() {
        counter.opened()
        // The stream keeps its handlers until it closes; they hold the replay, which the timer
        // also holds until `stop`.
        stream.onClose { _ in self.queue.async { self.stop() } }
        stream.onShutdown { self.queue.async { self.finish(reason: "shutdown", atHours: nil) } }
        queue.async { [self] in
            guard !finished else { return }
            _ = stream.send(retry: 2000)
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(5))
            t.setEventHandler { [weak self] in self?.tick() }
            timer = t
            t.resume()
        }
    }

    /// The mission time now: start + elapsed wall time × speed.
    private func currentHours() -> Double {
        guard sentFirst else { return startHours }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - startUptime) / 1e9
        return startHours + elapsed * speed / 3600
    }

    private func tick() {
        guard !finished else { return }
        let end = engine.mission.replayEndHours
        // The first event is the state at the start; the replay clock runs from when it is
        // sent, so a slow first tick (a loaded server) does not skip the beginning.
        let t: Double
        if !sentFirst {
            // Exactly the start, not the clock read after it: a thread preempted between the two
            // reads (a loaded machine) would otherwise open the replay some minutes in.
            sentFirst = true
            startUptime = DispatchTime.now().uptimeNanoseconds
            t = min(startHours, end)
        } else {
            t = min(currentHours(), end)
        }
        guard send(t) else { stop(); return }
        if t >= end { finish(reason: "completed", atHours: end) }
    }

    /// Telemetry at `t`, then each event crossed since the last tick. False when the stream is gone.
    private func send(_ t: Double) -> Bool {
        guard let telemetry = try? engine.telemetry(at: t) else { return true }
        let id = String(MissionClock.metMilliseconds(hours: t))
        var w = JSONWriter(capacity: 2048)
        MissionEncoding.telemetry(telemetry, into: &w)
        guard stream.send(event: "telemetry", id: id, data: String(decoding: w.bytes, as: UTF8.self)) else { return false }
        for e in detector.advance(to: t) {
            var ew = JSONWriter(capacity: 256)
            ew.object { w in
                w.key("mission"); w.string(engine.mission.id)
                w.key("t"); w.number(e.timeHours)
                w.key("met"); w.string(MissionClock.met(hours: e.timeHours))
                w.key("name"); w.string(e.name)
                w.key("detail"); w.string(e.detail)
                w.key("showLabel"); w.bool(e.showLabel)
            }
            guard stream.send(event: "mission-event", id: id, data: String(decoding: ew.bytes, as: UTF8.self)) else { return false }
        }
        return true
    }

    /// `end` (completed, or the server is shutting down), then close.
    private func finish(reason: String, atHours t: Double?) {
        guard !finished else { return }
        let at = t ?? min(currentHours(), engine.mission.replayEndHours)
        var w = JSONWriter(capacity: 128)
        w.object { w in
            w.key("mission"); w.string(engine.mission.id)
            w.key("t"); w.number(at)
            w.key("reason"); w.string(reason)
        }
        _ = stream.send(event: "end", id: String(MissionClock.metMilliseconds(hours: at)), data: String(decoding: w.bytes, as: UTF8.self))
        stream.close()
        stop()
    }

    private func stop() {
        guard !finished else { return }
        finished = true
        timer?.cancel()
        timer = nil
        counter.closed()
    }
}

/// How many replays are running (for `/metrics`).
public final class StreamCounter: Sendable {
    private let count = Atomic<Int>(0)
    public init() {}
    func opened() { count.add(1, ordering: .relaxed) }
    func closed() { count.subtract(1, ordering: .relaxed) }
    public var open: Int { count.load(ordering: .relaxed) }
}
