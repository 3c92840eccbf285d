import Foundation
import Testing
@testable import Missions

@Suite("Replay cursor: ids, order, resuming")
struct ReplayCursorTests {
    static let apollo11 = TestMissions.mission("apollo11")
    static let artemis2 = TestMissions.mission("artemis2")

    /// Artemis II with a second event in the lunar closest approach's millisecond.
    static let crowded: Mission = {
        do {
            let edited = try TestMissions.catalogue(editing: "artemis2") { m in
                var events = m["events"] as! [Any]
                events.insert(["key": "probe", "date": "2026-04-06T23:01:00Z", "name": "Probe", "detail": "the same millisecond as the closest approach"], at: 8)
                m["events"] = events
            }
            guard let m = edited["artemis2"] else { fatalError("no artemis2") }
            return m
        } catch { fatalError("the crowded mission does not load: \(error)") }
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

    static func keys(_ items: some Sequence<ReplayCursor.Item>) -> [String] {
        items.compactMap { if case let .missionEvent(e, _) = $0 { return e.key ?? e.name } else { return nil } }
    }

    static func replay(_ m: Mission, from t: Double = 0) -> ReplayCursor {
        ReplayCursor(mission: m, from: t, endHours: m.replayEndHours(nowHours: 0))
    }

    @Test("ids parse and print: milliseconds, and a sequence within one")
    func idsParseAndPrint() throws {
        #expect(ReplayEventID("380008797") == ReplayEventID(metMilliseconds: 380_008_797, sequence: 0))
        #expect(ReplayEventID(" 380008797.2\t") == ReplayEventID(metMilliseconds: 380_008_797, sequence: 2))
        #expect(ReplayEventID(metMilliseconds: 5, sequence: 0).description == "5")
        #expect(ReplayEventID(metMilliseconds: 5, sequence: 3).description == "5.3")
        for bad in ["", "soon", "-5", "5.", ".5", "5.1.2", "1e6", "5 .1", "٣"] {
            #expect(ReplayEventID(bad) == nil, "\(bad)")
        }
        // Times too large for 64 bits are the largest there is: past every replay's end.
        #expect(ReplayEventID("1378690000000000") == ReplayEventID(metMilliseconds: 1_378_690_000_000_000, sequence: 0))
        #expect(ReplayEventID(String(repeating: "9", count: 40)) == ReplayEventID(metMilliseconds: .max, sequence: 0))
        #expect(ReplayEventID("5.1234567") == ReplayEventID(metMilliseconds: 5, sequence: 999_999))
        #expect(try #require(ReplayEventID("5.2")) < #require(ReplayEventID("5.10")))
        #expect(try #require(ReplayEventID("5.9")) < #require(ReplayEventID("6")))
    }

    @Test("a full replay: strictly increasing ids, each event once and before later telemetry, end last")
    func fullReplay() throws {
        let m = Self.artemis2
        // Launch 2026-04-01T22:35:12Z, splashdown 2026-04-11T00:07:00Z: 9 d 01:31:48 = 783,108 s.
        #expect(m.replayEndHours(nowHours: 1e6) == m.endHours && abs(m.replayEndHours(nowHours: 0) - 783_108.0 / 3600) < 1e-9)
        let items = Self.run(Self.replay(m), step: 0.7)
        let ids = items.map(\.id)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Self.keys(items) == m.events.map { $0.key ?? $0.name })
        guard case let .end(hours, id)? = items.last else {
            Issue.record("no end")
            return
        }
        #expect(abs(hours - 783_108.0 / 3600) < 1e-9 && id.description == "783108000.2")
        // Launch at MET 0 comes before the first tick (also at 0), splashdown before the last.
        #expect(ids.prefix(2).map(\.description) == ["0", "0.1"])
        #expect(items.dropLast().suffix(2).map(\.id.description) == ["783108000", "783108000.1"])
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
        let m = Self.apollo11
        let end = m.replayEndHours(nowHours: 0)
        let recording = Self.run(Self.replay(m), step: 0.7)
        for (k, item) in recording.enumerated() {
            guard let cursor = ReplayCursor(mission: m, resumingAfter: item.id, endHours: end) else {
                #expect(k == recording.count - 1, "only the end leaves nothing to resume")
                continue
            }
            // Another tick grid than the recording's: the events must not depend on it.
            let resumed = Self.run(cursor, step: 1.3)
            let ids = resumed.map(\.id)
            #expect(ids.allSatisfy { $0 > item.id })
            #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 })
            #expect(Self.keys(resumed) == Self.keys(recording[(k + 1)...]), "after \(item.id)")
            #expect(resumed.last == recording.last)
        }
        let endID = try #require(recording.last?.id)
        #expect(ReplayCursor(mission: m, resumingAfter: endID, endHours: end) == nil)
        #expect(ReplayCursor(mission: m, resumingAfter: ReplayEventID(metMilliseconds: endID.metMilliseconds + 1, sequence: 0), endHours: end) == nil)
    }

    @Test("events in one millisecond get their own ids; the tick there comes after them")
    func sameMillisecond() throws {
        let m = Self.crowded
        // 2026-04-06T23:01:00Z is 5 d 00:25:48 after launch: 433,548,000 ms.
        let ca: Int64 = 433_548_000
        let items = Self.run(Self.replay(m, from: 100), step: 0.2)
        let inThatMs = items.filter { $0.id.metMilliseconds == ca }
        #expect(Self.keys(inThatMs) == ["lunar-ca", "probe"])
        #expect(inThatMs.prefix(2).map(\.id.sequence) == [0, 1])
        #expect(Self.replay(m).telemetryID(hours: Double(ca) / 3_600_000).description == "433548000.2")
        // A client that saw the closest approach only still gets Probe, then the tick there.
        let resumed = try #require(ReplayCursor(mission: m, resumingAfter: ReplayEventID(metMilliseconds: ca, sequence: 0), endHours: m.replayEndHours(nowHours: 0)))
        let rest = Self.run(resumed, step: 5)
        #expect(Self.keys(rest).first == "probe")
        #expect(rest.first?.id.description == "433548000.1")
        #expect(rest.dropFirst().first?.id.description == "433548000.2", "then the tick at the resume point")
    }

    @Test("starting mid-mission skips the past; an event exactly at the start is sent")
    func startingMidMission() throws {
        let m = Self.apollo11
        var c = Self.replay(m, from: 100)
        #expect(Self.keys(c.advance(to: 100)).isEmpty)
        #expect(Self.keys(c.advance(to: 101)) == ["undock"])
        let loi = try #require(m.events.first { $0.key == "loi" })
        var exact = Self.replay(m, from: loi.timeHours)
        #expect(Self.keys(exact.advance(to: loi.timeHours)) == ["loi"])
        // The same millisecond twice sends no second tick.
        var again = Self.replay(m, from: 10)
        #expect(again.advance(to: 10).count == 1)
        #expect(again.advance(to: 10 + 1e-10).isEmpty)
        // A tick past the end is clamped to it.
        var late = Self.replay(m, from: 190)
        let last = late.advance(to: 500)
        #expect(Self.keys(last) == ["entry", "splashdown"])
        if case let .end(hours, _)? = last.last { #expect(hours == m.endHours) } else { Issue.record("no end") }
        #expect(late.isFinished && late.advance(to: 600).isEmpty)
    }

    @Test("an ongoing mission's replay ends where the caller says, never before its last event")
    func ongoingMissionEnd() throws {
        let m = TestMissions.mission("voyager1")
        #expect(m.isOngoing && m.endHours == nil)
        let lastEvent = try #require(m.events.last).timeHours
        // The present as the caller gives it (late 2024), and a present before the last event.
        let now = 415_000.0
        #expect(m.replayEndHours(nowHours: now) == now)
        #expect(m.replayEndHours(nowHours: 100) == lastEvent)
        let items = Self.run(ReplayCursor(mission: m, from: lastEvent - 10, endHours: now), step: 5_000)
        #expect(Self.keys(items) == ["heliopause"])
        guard case let .end(hours, id)? = items.last else {
            Issue.record("no end")
            return
        }
        #expect(hours == now && id.description == "1494000000000.1")
        // Reconnecting a day later with the id of yesterday's end: the replay runs on to today's.
        #expect(ReplayCursor(mission: m, resumingAfter: id, endHours: now) == nil)
        let tomorrow = try #require(ReplayCursor(mission: m, resumingAfter: id, endHours: now + 24))
        let rest = Self.run(tomorrow, step: 6)
        #expect(Self.keys(rest).isEmpty)
        #expect(rest.map(\.id).allSatisfy { $0 > id })
        if case let .end(hours, _)? = rest.last { #expect(hours == now + 24) } else { Issue.record("no end") }
    }
}
