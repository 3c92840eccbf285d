import Testing
@testable import HTTPCore
import HTTPTestSupport

@Suite("EventStream")
struct EventStreamTests {
    @Test func wireFormat() {
        let bytes = EventStream.format(event: "telemetry", id: "1500", data: "line one\nline two\r\nline three", retry: 2000)
        #expect(String(decoding: bytes, as: UTF8.self) == "event: telemetry\nid: 1500\nretry: 2000\ndata: line one\ndata: line two\ndata: line three\n\n")
        #expect(String(decoding: EventStream.format(event: "a\nb", id: nil, data: "", retry: nil), as: UTF8.self) == "event: ab\ndata: \n\n")
        #expect(String(decoding: EventStream.formatComment("hi"), as: UTF8.self) == ": hi\n\n")
        // One line is copied whole; a NUL still becomes a space, a lone CR still splits.
        #expect(String(decoding: EventStream.format(event: nil, id: nil, data: "{\"a\":1}", retry: nil), as: UTF8.self) == "data: {\"a\":1}\n\n")
        #expect(String(decoding: EventStream.format(event: nil, id: nil, data: "a\u{0}b\rc", retry: nil), as: UTF8.self) == "data: a b\ndata: c\n\n")
        #expect(FormattedEvent(event: "telemetry", id: "1500", data: "x").bytes == EventStream.format(event: "telemetry", id: "1500", data: "x", retry: nil))
    }

    @Test func detachedStreamQueuesBoundsAndCloses() throws {
        let request = try HTTPRequest(target: "/s", headers: ["Host": "a", "Last-Event-ID": "99"])
        let stream = EventStream.detached(request: request, queueLimitBytes: 64)
        #expect(stream.lastEventID == "99")
        #expect(stream.send(data: "x"))
        #expect(String(decoding: stream.takeQueuedOutput(), as: UTF8.self) == "data: x\n\n")
        #expect(stream.send(data: String(repeating: "y", count: 100)) == false)
        #expect(stream.state == .closing)
        let reasons = Recorder<EventStream.CloseReason>()
        stream.onClose { reasons.append($0) }
        for h in stream.finish(.dropped) { h(.dropped) }
        stream.onClose { reasons.append($0) }
        #expect(reasons.all == [.dropped, .dropped])
        #expect(stream.send(data: "late") == false)
    }
}
