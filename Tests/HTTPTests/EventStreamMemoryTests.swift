import Testing
@testable import HTTPCore

/// All the event streams together: what they hold is bounded too. Past the total the stream
/// holding the most — the slowest reader — is dropped, and only as many as it takes.
@Suite("Event streams: the total they hold is bounded")
struct EventStreamMemoryTests {
    final class Sink: EventStreamSink, @unchecked Sendable {
        var serviced = 0
        func eventStreamNeedsService() { serviced += 1 }
    }

    static func stream(_ memory: EventStreamMemory, _ sink: Sink) throws -> EventStream {
        EventStream(request: try HTTPRequest(target: "/s"), queueLimitBytes: 256 * 1024, sink: sink, memory: memory)
    }

    static func kib(_ n: Int) -> String { String(repeating: "x", count: n * 1024) }

    @Test("the slowest stream is dropped when the total passes the limit; the others go on")
    func slowestDropped() throws {
        let memory = EventStreamMemory(limit: 64 * 1024)
        let sink = Sink()
        let a = try Self.stream(memory, sink), b = try Self.stream(memory, sink), c = try Self.stream(memory, sink)
        #expect(a.send(data: Self.kib(40)))
        #expect(b.send(data: Self.kib(20)))
        #expect(memory.total > 60 * 1024 && memory.total < 64 * 1024)
        // c's 10 KiB take the total past 64 KiB: a, holding the most, is dropped, not c.
        #expect(c.send(data: Self.kib(10)))
        #expect(a.drain().overflowed)
        #expect(!b.drain().overflowed && !c.drain().overflowed)
        #expect(memory.total < 34 * 1024)
        // A dropped stream takes no more, and its end does not count it out twice.
        #expect(!a.send(data: "more"))
        _ = a.finish(.dropped)
        #expect(memory.total < 34 * 1024 && memory.total > 29 * 1024)
        // What the connection sends leaves the total.
        #expect(!b.setUnsentOnWire(0) && !c.setUnsentOnWire(0))
        #expect(memory.total == 0)
        _ = b.finish(.clientGone)
        _ = c.finish(.clientGone)
        #expect(memory.total == 0)
    }

    @Test("unsent bytes on the wire count as the stream's, and a stream over the total alone drops only itself")
    func wireBytesCount() throws {
        let memory = EventStreamMemory(limit: 64 * 1024)
        let sink = Sink()
        let a = try Self.stream(memory, sink), b = try Self.stream(memory, sink)
        #expect(b.send(data: Self.kib(8)))
        _ = b.drain()
        #expect(!b.setUnsentOnWire(8 * 1024 + 20))
        #expect(memory.total > 8 * 1024)
        #expect(!a.setUnsentOnWire(70 * 1024))
        #expect(a.drain().overflowed, "a holds the most: dropped")
        #expect(!b.drain().overflowed)
    }
}
