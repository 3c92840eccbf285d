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
