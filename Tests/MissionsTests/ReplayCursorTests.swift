import Foundation
import Testing
@testable import Missions

@Suite struct ReplayCursorTests {
    static let apollo11 = TestMissions.mission("apollo11")

    /// Apollo 11 with a second event in LM Undock's millisecond (as two events crossed in one
    /// tick used to share an id).
    static let crowded: Mission = {
        var list = (try? JSONSerialization.jsonObject(with: Data(TestMissions.missionBytes))) as? [[String: Any]] ?? []
        let i = list.firstIndex { $0["id"] as? String == "apollo11" } ?? 0
        var events = list[i]["events"] as? [[String: Any]] ?? []
        events.insert(["t": 100.2, "name": "Probe", "detail": "the same millisecond as LM Undock", "showLabel": false], at: 4)
        list[i]["events"] = events
        let bytes = (try? JSONSerialization.data(withJSONObject: [list[i]])) ?? Data()
        guard let m = (try? MissionCatalogue(json: [UInt8](bytes)))?["apollo11"] else { fatalError("the crowded mission does not load") }
        return m
    }()

    /// Runs a cursor over ticks every `step` hours from its start, past the end.
    static func run(_ cursor: ReplayCursor, step: Double) -> [ReplayCursor.Item] {
        var c = cursor, items: [ReplayCursor.Item] = []
        var t = c.startHours
        while !c.isFinished {
            items += c.advance(to: t)
            t += step
        }
        return items
    }

    static func names(_ items: some Sequence<ReplayCursor.Item>) -> [String] {
        items.compactMap { if case let .missionEvent(e, _) = $0 { return e.name } else { return nil } }
    }

    @Test func idsParseAndPrint() {
        #expect(ReplayEventID("380008797") == ReplayEventID(metMilliseconds: 380_008_797, sequence: 0))
        #expect(ReplayEventID(" 380008797.2\t") == ReplayEventID(metMilliseconds: 380_008_797, sequence: 2))
        #expect(ReplayEventID(metMilliseconds: 5, sequence: 0).description == "5")
        #expect(ReplayEventID(metMilliseconds: 5, sequence: 3).description == "5.3")
        for bad in ["", "soon", "-5", "5.", ".5", "5.1.2", "1e6", "5 .1", "1234567890123456", "5.1234567", "٣"] {
            #expect(ReplayEventID(bad) == nil, "\(bad)")
        }
        #expect(ReplayEventID("5.2")! < ReplayEventID("5.10")!)
        #expect(ReplayEventID("5.9")! < ReplayEventID("6")!)
    }

    @Test("a full replay: strictly increasing ids, each event once and before later telemetry, end last")
    func fullReplay() throws {
        let items = Self.run(ReplayCursor(mission: Self.apollo11, from: 0), step: 0.7)
        let ids = items.map(\.id)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Self.names(items) == Self.apollo11.events.map(\.name))
        guard case let .end(hours, id)? = items.last else { Issue.record("no end"); return }
        #expect(hours == 195.3 && id.description == "703080000.2")
        // Launch at MET 0 comes before the first tick (also at 0), Splashdown before the last.
        #expect(ids.prefix(2).map(\.description) == ["0", "0.1"])
        #expect(items.dropLast().suffix(2).map(\.id.description) == ["703080000", "703080000.1"])
        // Time order: a mission event at t precedes every telemetry tick later than t.
        var latestTick = -Double.infinity
        for item in items {
            switch item {
            case let .telemetry(t, _): latestTick = t
            case let .missionEvent(e, _): #expect(e.timeHours >= latestTick, "\(e.name) after a tick at \(latestTick)")
            case .end: break
            }
        }
    }

    @Test("resuming after any id delivers the recording's tail of events exactly once")
    func resumeFromEveryID() throws {
        let recording = Self.run(ReplayCursor(mission: Self.apollo11, from: 0), step: 0.7)
        for (k, item) in recording.enumerated() {
            guard let cursor = ReplayCursor(mission: Self.apollo11, resumingAfter: item.id) else {
                #expect(k == recording.count - 1, "only the end leaves nothing to resume")
                continue
            }
            // Another tick grid than the recording's: the events must not depend on it.
            let resumed = Self.run(cursor, step: 1.3)
            let ids = resumed.map(\.id)
            #expect(ids.allSatisfy { $0 > item.id })
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
            let tail = recording[(k + 1)...]
            #expect(Self.names(resumed) == Self.names(tail), "after \(item.id)")
            #expect(resumed.last == recording.last)
        }
        #expect(ReplayCursor(mission: Self.apollo11, resumingAfter: ReplayEventID(metMilliseconds: 703_080_000, sequence: 2)) == nil)
        #expect(ReplayCursor(mission: Self.apollo11, resumingAfter: ReplayEventID(metMilliseconds: 800_000_000, sequence: 0)) == nil)
    }

    @Test("events in one millisecond get their own ids; the tick there comes after them")
    func sameMillisecond() throws {
        let m = Self.crowded
        let items = Self.run(ReplayCursor(mission: m, from: 100), step: 0.2)
        let undock = MissionClock.metMilliseconds(hours: 100.2)
        let inThatMs = items.filter { $0.id.metMilliseconds == undock }
        #expect(Self.names(inThatMs) == ["LM Undock", "Probe"])
        #expect(inThatMs.prefix(2).map(\.id.sequence) == [0, 1])
        #expect(ReplayCursor(mission: m, from: 0).telemetryID(hours: 100.2).description == "\(undock).2")
        // A client that saw LM Undock only still gets Probe.
        let resumed = try #require(ReplayCursor(mission: m, resumingAfter: ReplayEventID(metMilliseconds: undock, sequence: 0)))
        let rest = Self.run(resumed, step: 5)
        #expect(Self.names(rest).first == "Probe")
        #expect(rest.first?.id.description == "\(undock).1")
        #expect(rest.dropFirst().first?.id.description == "\(undock).2", "then the tick at the resume point")
    }

    @Test func startingMidMissionSkipsThePast() {
        var c = ReplayCursor(mission: Self.apollo11, from: 100)
        #expect(Self.names(c.advance(to: 100)).isEmpty)
        #expect(Self.names(c.advance(to: 101)) == ["LM Undock"])
        var exact = ReplayCursor(mission: Self.apollo11, from: 75.8)
        #expect(Self.names(exact.advance(to: 75.8)) == ["LOI"])
        // The same millisecond twice sends no second tick.
        var again = ReplayCursor(mission: Self.apollo11, from: 10)
        #expect(again.advance(to: 10).count == 1)
        #expect(again.advance(to: 10 + 1e-10).isEmpty)
    }
}
