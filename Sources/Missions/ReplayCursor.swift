/// What a mission replay sends and in which order: each mission event once, telemetry ticks, and
/// the final `end`, every one with its own strictly increasing ``ReplayEventID``. The ids depend
/// only on the mission data (events) and on the tick's mission time (telemetry), so a replay
/// resumed after any id delivers exactly the events a client has not seen.
///
/// The replay clock calls ``advance(to:)`` with the mission time of each tick; it returns the
/// mission events reached since the previous tick (an event at MET t comes before any telemetry
/// later than t, and before the tick at t itself), then the tick's telemetry, then `end` once the
/// clock reaches ``endHours``.
///
/// ```swift
/// var cursor = ReplayCursor(mission: apollo11, from: 0, endHours: 195.31)
/// cursor.advance(to: 0)      // [Launch (id 0), telemetry at 0 (id 0.1)]
/// cursor.advance(to: 3)      // [TLI (id 9856000), telemetry at 3 h (id 10800000)]
/// ```
public struct ReplayCursor: Sendable {
    public enum Item: Sendable, Equatable {
        case missionEvent(MissionEvent, ReplayEventID)
        case telemetry(hours: Double, ReplayEventID)
        case end(hours: Double, ReplayEventID)

        public var id: ReplayEventID {
            switch self {
            case let .missionEvent(_, id), let .telemetry(_, id), let .end(_, id): return id
            }
        }
    }

    /// The mission time the replay ends at.
    public let endHours: Double
    /// The id of the final `end` event: every other id is smaller.
    public let endID: ReplayEventID
    /// The mission time the replay starts at: `from`, or the resume point's millisecond.
    public let startHours: Double
    private let events: [(event: MissionEvent, id: ReplayEventID)]
    /// How many events fall in each millisecond that has any (the sequence a tick there gets).
    private let eventsPerMillisecond: [Int64: Int]
    private var nextEvent: Int
    /// The last id delivered (or the resume point): everything up to it has been seen.
    public private(set) var lastID: ReplayEventID?
    public private(set) var isFinished = false

    /// A replay from `from` hours (events before it count as passed; one exactly at it is sent)
    /// to `endHours` (``Mission/replayEndHours(nowHours:)``: a mission that flies on ends at
    /// the present).
    public init(mission: Mission, from: Double, endHours: Double) {
        self.init(mission: mission, start: from, after: nil, endHours: endHours)
    }

    /// A replay resumed after `id`, the last event a client saw. Nil when `id` lies at or past
    /// the replay's end (``endID``): there is nothing left to send.
    public init?(mission: Mission, resumingAfter id: ReplayEventID, endHours: Double) {
        self.init(mission: mission, start: Double(id.metMilliseconds) / 3_600_000, after: id, endHours: endHours)
        guard id < endID else { return nil }
    }

    private init(mission: Mission, start: Double, after resumePoint: ReplayEventID?, endHours: Double) {
        var perMillisecond: [Int64: Int] = [:]
        var list: [(event: MissionEvent, id: ReplayEventID)] = []
        for e in mission.events.sorted(by: { ($0.timeHours, $0.index) < ($1.timeHours, $1.index) }) {
            let ms = MissionClock.metMilliseconds(hours: e.timeHours)
            let sequence = perMillisecond[ms, default: 0]
            perMillisecond[ms] = sequence + 1
            list.append((e, ReplayEventID(metMilliseconds: ms, sequence: sequence)))
        }
        events = list
        eventsPerMillisecond = perMillisecond
        self.endHours = endHours
        let endMs = MissionClock.metMilliseconds(hours: endHours)
        endID = ReplayEventID(metMilliseconds: endMs, sequence: perMillisecond[endMs, default: 0] + 1)
        startHours = start
        lastID = resumePoint
        if let resumePoint {
            nextEvent = list.firstIndex { $0.id > resumePoint } ?? list.count
        } else {
            let startMs = MissionClock.metMilliseconds(hours: start)
            nextEvent = list.firstIndex { $0.id.metMilliseconds >= startMs } ?? list.count
        }
    }

    /// The id a telemetry tick at `t` hours gets: after the events of its millisecond.
    public func telemetryID(hours t: Double) -> ReplayEventID {
        let ms = MissionClock.metMilliseconds(hours: t)
        return ReplayEventID(metMilliseconds: ms, sequence: eventsPerMillisecond[ms, default: 0])
    }

    /// Moves the replay clock to `t` hours (not before the previous call; clamped to the end)
    /// and returns what is due, in order. A tick whose id is not past everything already
    /// delivered (the same millisecond again, or at the resume point) sends no telemetry.
    public mutating func advance(to t: Double) -> [Item] {
        guard !isFinished else { return [] }
        let t = min(t, endHours)
        let tick = telemetryID(hours: t)
        var due: [Item] = []
        while nextEvent < events.count, events[nextEvent].id.metMilliseconds <= tick.metMilliseconds {
            due.append(.missionEvent(events[nextEvent].event, events[nextEvent].id))
            nextEvent += 1
        }
        if lastID.map({ tick > $0 }) ?? true {
            due.append(.telemetry(hours: t, tick))
        }
        if t >= endHours {
            due.append(.end(hours: endHours, endID))
            isFinished = true
        }
        if let last = due.last { lastID = last.id }
        return due
    }
}
