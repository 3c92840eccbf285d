import Dispatch
import Foundation
import HTTPCore
import HTTPTestSupport
import Logging
import Missions
import Synchronization
import Testing
@testable import SolarSystemAPI

/// One server-sent event as read off the wire.
struct SSEEvent {
    var event = "message"
    var id: String?
    var data = ""
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
}

/// Splits an event-stream body into events (comments and `retry:` skipped).
func parseSSE(_ text: String) -> [SSEEvent] {
    text.components(separatedBy: "\n\n").compactMap { block -> SSEEvent? in
        var e = SSEEvent(), hasData = false
        for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix(":") { continue }
            let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
            let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
            switch parts[0] {
            case "event": e.event = value
            case "id": e.id = value
            case "data": e.data += (hasData ? "\n" : "") + value; hasData = true
            default: break
            }
        }
        return hasData ? e : nil
    }
}

@Suite("GET /v1/missions/{id}/stream")
struct MissionStreamTests {
    func replay(_ query: String, headers: [String: String] = [:]) throws -> (RawResponse, [SSEEvent]) {
        let c = try APIServer.shared.client(receiveTimeout: 30)
        defer { c.close() }
        var text = "GET /v1/missions/apollo11/stream?\(query) HTTP/1.1\r\nHost: t\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        try c.send(text + "\r\n")
        let r = try c.readResponse()
        return (r, parseSSE(r.bodyText))
    }

    @Test("a fast replay: telemetry in time order, each event exactly once, end last")
    func fullReplay() throws {
        let (r, events) = try replay("speed=1e6&rate=30")
        #expect(r.status == 200)
        #expect(r.header("content-type")?.hasPrefix("text/event-stream") == true)
        #expect(r.header("cache-control") == "no-store")
        // Launch (MET 0) comes first, then the tick at MET 0.
        #expect(events.prefix(2).map(\.event) == ["mission-event", "telemetry"])
        #expect(events.prefix(2).map(\.id) == ["0", "0.1"])
        #expect(events.last?.event == "end")
        #expect(events.filter { $0.event == "end" }.count == 1)
        let ids = events.compactMap { $0.id.flatMap(ReplayEventID.init) }
        #expect(ids.count == events.count, "every event has an id")
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids strictly increase")
        let fired = events.filter { $0.event == "mission-event" }.compactMap { $0.json["name"] as? String }
        #expect(fired == ["Launch", "Trans-lunar injection", "Lunar orbit insertion", "Undocking", "Descent orbit insertion", "Powered descent",
                          "Eagle has landed", "First step", "Lunar lift-off", "Docking", "Trans-Earth injection", "Entry interface", "Splashdown"])
        let telemetry = events.filter { $0.event == "telemetry" }
        #expect(telemetry.count >= 2)
        #expect((number(telemetry.first?.json["t"]) ?? 99) < 0.01) // the replay opens at its start
        // It closes at splashdown, 195 h 18 min 35 s after launch.
        #expect(abs((number(telemetry.last?.json["t"]) ?? 0) - (195 + 18.0 / 60 + 35.0 / 3600)) < 1e-9)
        #expect(telemetry.allSatisfy { $0.json["vehicles"] is [Any] && $0.json["met"] is String })
        #expect(events.last?.json["reason"] as? String == "completed")
    }

    @Test("Last-Event-ID resumes after that event; a bad one starts from `from`")
    func resume() throws {
        // MET 100 h in ms: after LOI (75.8 h), before the undocking (100.2 h).
        let (_, resumed) = try replay("speed=1e6&rate=30", headers: ["Last-Event-ID": "360000000"])
        let first = resumed.first { $0.event == "telemetry" }
        #expect((number(first?.json["t"]) ?? 0) > 100, "the tick at 360000000 itself was seen")
        let fired = resumed.filter { $0.event == "mission-event" }.compactMap { $0.json["name"] as? String }
        #expect(fired == ["Undocking", "Descent orbit insertion", "Powered descent", "Eagle has landed", "First step", "Lunar lift-off", "Docking",
                          "Trans-Earth injection", "Entry interface", "Splashdown"])
        // LOI's own id (75 h 49 min 50 s): LOI was seen, it is not sent again; the tick in its
        // millisecond comes after it.
        let (_, atEvent) = try replay("speed=1e6&rate=30", headers: ["Last-Event-ID": "272990000"])
        #expect(!atEvent.contains { $0.event == "mission-event" && $0.json["name"] as? String == "Lunar orbit insertion" })
        #expect(atEvent.first { $0.event == "telemetry" }?.id == "272990000.1")
        let (_, bad) = try replay("speed=1e6&rate=30&from=130", headers: ["Last-Event-ID": "soon"])
        #expect(bad.filter { $0.event == "mission-event" }.compactMap { $0.json["name"] as? String } == ["Trans-Earth injection", "Entry interface", "Splashdown"])
    }

    @Test("a full replay, resumed from every id in it, delivers the recording's tail exactly once")
    func resumeFromEveryID() throws {
        let (_, recording) = try replay("speed=1e6&rate=30")
        let ids = recording.compactMap { $0.id.flatMap(ReplayEventID.init) }
        #expect(ids.count == recording.count && recording.count > 20)
        /// Mission events and the end, as (id, data): what must arrive exactly once.
        func milestones(_ events: some Sequence<SSEEvent>) -> [String] {
            events.filter { $0.event != "telemetry" }.map { "\($0.id ?? "-") \($0.event) \($0.data)" }
        }
        // The resumes run at once (each a fast replay of what is left).
        let results = Mutex<[Int: [SSEEvent]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: recording.count - 1) { k in
            do {
                let (r, events) = try replay("speed=1e7&rate=30", headers: ["Last-Event-ID": recording[k].id ?? ""])
                if r.status != 200 { failures.withLock { $0.append("\(k): \(r.status)") } }
                results.withLock { $0[k] = events }
            } catch {
                failures.withLock { $0.append("\(k): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let all = results.withLock { $0 }
        for k in 0..<(recording.count - 1) {
            let resumed = all[k] ?? []
            let after = ids[k]
            let resumedIDs = resumed.compactMap { $0.id.flatMap(ReplayEventID.init) }
            #expect(resumedIDs.count == resumed.count)
            #expect(resumedIDs.allSatisfy { $0 > after }, "resumed after \(after)")
            #expect(zip(resumedIDs, resumedIDs.dropFirst()).allSatisfy { $0 < $1 })
            #expect(milestones(resumed) == milestones(recording[(k + 1)...]), "resumed after \(after)")
        }
    }

    @Test("a reconnect at or past the end gets 204 without a body, and no gzip")
    func reconnectAfterTheEnd() throws {
        let (_, recording) = try replay("speed=1e6&rate=30")
        let end = try #require(recording.last?.id)
        for last in [end, "703115000.7", "999999999999", "1378690000000000", String(repeating: "9", count: 30)] {
            let (r, events) = try replay("speed=1e6&rate=30", headers: ["Last-Event-ID": last, "Accept-Encoding": "gzip"])
            #expect(r.status == 204, "Last-Event-ID \(last)")
            #expect(r.body.isEmpty && events.isEmpty)
            #expect(r.header("content-length") == nil && r.header("content-encoding") == nil && r.header("transfer-encoding") == nil)
            #expect(r.header("cache-control") == "no-store")
        }
        // The last telemetry's id is before the end: the end is all that is left.
        let (_, tail) = try replay("speed=1e6&rate=30", headers: ["Last-Event-ID": "703115000.1"])
        #expect(tail.map(\.event) == ["end"])
    }

    @Test("ticks fall on a grid of start + k × speed / rate, so replays of the same query pass the same mission times")
    func ticksOnAGrid() throws {
        // A late tick is skipped, not queued: at 1e6 the 115 hours from 80 h to the end pass in
        // 0.4 s of wall time, and a loaded machine (CI runs every suite at once on two cores)
        // once sent only the first tick and the end. At 1e5 the replay lasts 4 s, 124 ticks.
        let speed = 1e5, rate = 30.0, from = 80.0
        let (_, events) = try replay("speed=100000&rate=30&from=80")
        let telemetry = events.filter { $0.event == "telemetry" }.compactMap { number($0.json["t"]) }
        #expect(telemetry.count >= 3)
        // The last tick is clamped to the mission's end; every other is on the grid.
        for t in telemetry.dropLast() {
            let k = (t - from) * 3600 / (speed / rate)
            #expect(abs(k - k.rounded()) < 1e-6, "t \(t) is tick \(k)")
        }
    }

    @Test("the stream's telemetry is exactly /telemetry's answer at that time")
    func sameAsTelemetry() throws {
        let (_, events) = try replay("speed=1e6&rate=30&from=80")
        guard let first = events.first(where: { $0.event == "telemetry" }), let t = number(first.json["t"]) else {
            Issue.record("no telemetry"); return
        }
        let r = try APIServer.get("/v1/missions/apollo11/telemetry?t=\(t)")
        #expect(r.bodyText == first.data)
    }
}

/// A client that falls behind gets fewer samples, never fewer mission events.
@Suite("Mission replay for a client that falls behind")
struct MissionReplayBacklogTests {
    @Test("telemetry is skipped while a quarter of the queue waits; every mission event and the end still queue, in order")
    func skipsTelemetryNotEvents() throws {
        let services = APIServer.services
        let scene = try services.missionScene("apollo11")
        // Nothing drains a detached stream: its queue is what the client has not taken. 64 KiB:
        // behind from 16 KiB, about ten samples.
        let stream = EventStream.detached(request: try HTTPRequest(target: "/v1/missions/apollo11/stream"), queueLimitBytes: 64 << 10)
        let cursor = ReplayCursor(mission: scene.engine.mission, from: 0, endHours: scene.engine.mission.durationHours)
        let counter = StreamCounter()
        // A ticker of its own, so other suites' replays do not share it.
        let replay = MissionReplay(scene: scene, stream: stream, cursor: cursor, first: try scene.engine.telemetry(at: 0), speed: 2e5, rate: 30,
                                   counter: counter, events: ReplayEventCache(), logger: Logger(label: "test"), ticker: ReplayTicker())
        replay.begin()
        #expect(TestServer.eventually(timeout: 30) { stream.state != .open })
        let events = parseSSE(String(decoding: stream.takeQueuedOutput(), as: UTF8.self))
        let fired = events.filter { $0.event == "mission-event" }.compactMap { $0.json["name"] as? String }
        #expect(fired == ["Launch", "Trans-lunar injection", "Lunar orbit insertion", "Undocking", "Descent orbit insertion", "Powered descent",
                          "Eagle has landed", "First step", "Lunar lift-off", "Docking", "Trans-Earth injection", "Entry interface", "Splashdown"])
        #expect(events.last?.event == "end")
        let ids = events.compactMap { $0.id.flatMap(ReplayEventID.init) }
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids strictly increase")
        // 195 h at 2e5 × is 3.5 s: about 105 ticks on an idle machine, fewer when the other suites
        // keep both cores busy (56 in one CI run); only those before the queue held 16 KiB were
        // sent, and most ticks found it behind.
        let telemetry = events.filter { $0.event == "telemetry" }.count
        let ticks = counter.skippedTicks + telemetry
        #expect(telemetry >= 2 && telemetry <= 20, "\(telemetry) samples")
        #expect(ticks >= 30, "\(ticks) ticks")
        #expect(counter.skippedTicks * 2 >= ticks, "\(counter.skippedTicks) of \(ticks) ticks skipped")
    }
}
