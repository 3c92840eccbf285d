import Testing
@testable import HTTPCore

@Suite("The worker pool's FIFO lanes")
struct FIFOQueueTests {
    @Test("FIFOQueue: first in, first out through growth, compaction and emptying")
    func fifo() {
        var q = FIFOQueue<Int>()
        #expect(q.popFirst() == nil && q.isEmpty)
        var expected = 0, next = 0
        // Interleaved appends and pops, the queue's length going up and down past the compaction point.
        for round in 0..<50 {
            for _ in 0..<(round % 7 == 0 ? 100 : 3) { q.append(next); next += 1 }
            for _ in 0..<(round % 5 == 0 ? 60 : 2) {
                guard let v = q.popFirst() else { break }
                #expect(v == expected)
                expected += 1
            }
            #expect(q.count == next - expected)
        }
        while let v = q.popFirst() {
            #expect(v == expected)
            expected += 1
        }
        #expect(expected == next && q.isEmpty && q.count == 0)
    }
}
