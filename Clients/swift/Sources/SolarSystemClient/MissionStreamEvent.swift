import Foundation
import OpenAPIRuntime

/// One event of a mission's replay stream (`GET /v1/missions/{id}/stream`), its `data`
/// decoded into the spec's type for its `event:` name.
///
/// ```swift
/// guard case .ok(let ok) = try await client.streamMission(path: .init(id: "apollo11")) else { return }
/// for try await event in try ok.body.textEventStream.missionStreamEvents() {
///     if case .telemetry(let frame, _) = event { print(frame.met) }
/// }
/// ```
public enum MissionStreamEvent: Sendable, Hashable {
    /// `event: telemetry`: the `/telemetry` answer at the current mission time.
    case telemetry(Components.Schemas.Telemetry, id: String?)
    /// `event: mission-event`: an event of the mission reached since the previous tick.
    case missionEvent(Components.Schemas.StreamMissionEvent, id: String?)
    /// `event: end`: the replay is over (completed, shutdown or error); the stream closes.
    case end(Components.Schemas.StreamEnd, id: String?)

    /// The event's `id:` (MET milliseconds, `.n` when several share one), for `Last-Event-ID`.
    public var id: String? {
        switch self {
        case .telemetry(_, let id), .missionEvent(_, let id), .end(_, let id): id
        }
    }

    /// The event decoded from a server-sent event; nil for an event name this client does not
    /// know (a later server may send more kinds), so such events are skipped, not fatal.
    public init?(_ event: ServerSentEvent, decoder: JSONDecoder = JSONDecoder()) throws {
        guard let data = event.data.map({ Data($0.utf8) }) else { return nil }
        switch event.event {
        case "telemetry": self = .telemetry(try decoder.decode(Components.Schemas.Telemetry.self, from: data), id: event.id)
        case "mission-event": self = .missionEvent(try decoder.decode(Components.Schemas.StreamMissionEvent.self, from: data), id: event.id)
        case "end": self = .end(try decoder.decode(Components.Schemas.StreamEnd.self, from: data), id: event.id)
        default: return nil
        }
    }
}

extension HTTPBody {
    /// The body of a mission stream as typed events (`asDecodedServerSentEvents` of the
    /// OpenAPI runtime, each decoded by `MissionStreamEvent`; unknown event names are skipped).
    public func missionStreamEvents(
        decoder: JSONDecoder = JSONDecoder()
    ) -> AsyncThrowingCompactMapSequence<
        ServerSentEventsDeserializationSequence<ServerSentEventsLineDeserializationSequence<HTTPBody>>, MissionStreamEvent
    > {
        asDecodedServerSentEvents().compactMap { try MissionStreamEvent($0, decoder: decoder) }
    }
}
