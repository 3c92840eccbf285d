/// The events around one mission time: the last one reached, the next one ahead, and the labels
/// a front-end shows then.
public struct EventStatus: Sendable, Hashable {
    public let timeHours: Double
    /// The latest event with `timeHours ≤ t`.
    public let lastEvent: MissionEvent?
    /// The earliest event with `timeHours > t`.
    public let nextEvent: MissionEvent?
    /// `showLabel` events with |t − event| < ``Mission/labelWindowHours``, in time order.
    public let visibleLabels: [MissionEvent]
}

extension Mission {
    /// Events with `from ≤ timeHours ≤ to`, in time order (either bound may be omitted).
    public func events(from: Double? = nil, to: Double? = nil) -> [MissionEvent] {
        events.filter { e in (from.map { e.timeHours >= $0 } ?? true) && (to.map { e.timeHours <= $0 } ?? true) }
    }

    /// Last and next event and the labels visible at `t` hours.
    public func eventStatus(at t: Double) -> EventStatus {
        let window = labelWindowHours
        return EventStatus(
            timeHours: t,
            lastEvent: events.last { $0.timeHours <= t },
            nextEvent: events.first { $0.timeHours > t },
            visibleLabels: events.filter { $0.showLabel && MissionClock.labelVisible(eventHours: $0.timeHours, at: t, windowHours: window) }
        )
    }
}

/// Fires each event of a replay exactly once, when mission time reaches it, and re-arms the
/// events after a rewind (the seeds' `lastTriggeredEvent` cursor with rewind reset).
///
/// ```swift
/// var detector = MissionEventDetector(events: mission.events, startingAt: 0)
/// detector.advance(to: 3)    // [Launch, TLI]
/// detector.advance(to: 3)    // []
/// detector.advance(to: 1)    // [] — rewind: TLI is armed again
/// detector.advance(to: 3)    // [TLI]
/// ```
public struct MissionEventDetector: Sendable {
    public let events: [MissionEvent]
    /// Index of the first event not yet fired (events are in time order).
    public private(set) var cursor: Int
    /// The time of the previous ``advance(to:)``, nil before the first.
    public private(set) var lastTimeHours: Double?

    /// Events at or after `start` are armed (an event exactly at `start` fires on the first
    /// advance); those before it count as already passed.
    public init(events: [MissionEvent], startingAt start: Double) {
        self.events = events.sorted { ($0.timeHours, $0.index) < ($1.timeHours, $1.index) }
        cursor = self.events.firstIndex { $0.timeHours >= start } ?? self.events.count
        lastTimeHours = nil
    }

    /// Moves the replay to `t` and returns the events crossed, in order. Going backwards re-arms
    /// every event after `t` (one exactly at `t` counts as passed) and fires nothing.
    public mutating func advance(to t: Double) -> [MissionEvent] {
        defer { lastTimeHours = t }
        if let last = lastTimeHours, t < last {
            cursor = events.firstIndex { $0.timeHours > t } ?? events.count
            return []
        }
        var fired: [MissionEvent] = []
        while cursor < events.count, events[cursor].timeHours <= t {
            fired.append(events[cursor])
            cursor += 1
        }
        return fired
    }
}
