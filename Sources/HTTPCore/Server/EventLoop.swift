import CLinux
import Dispatch
import Foundation
import Glibc
import Synchronization

/// What a loop tells about one registered descriptor.
protocol LoopRegistrant: AnyObject {
    /// The descriptor is readable, writable, or failed (`EPOLLERR`/`EPOLLHUP`: reported whatever
    /// the interest). Runs on the loop's thread.
    func loopEvent(readable: Bool, writable: Bool, failed: Bool)
}

/// One thread running `epoll_wait` over the connections assigned to it, as nginx's workers do:
/// a readable socket is read, parsed, routed and answered on this thread, with no hop through
/// another queue. Everything a connection does runs here; other threads hand work in with
/// ``execute(_:)`` (an `eventfd` wakes the loop). Timers (``schedule(afterNanos:_:)``) and one
/// repeating tick, which enforces timeouts and sends SSE heartbeats, so no connection owns a timer.
///
/// Interest is level-triggered: a connection that stops reading (back-pressure) turns `EPOLLIN`
/// off and gets readiness again as soon as it turns it back on, with nothing to remember.
final class EventLoop: @unchecked Sendable {
    typealias Job = () -> Void

    let index: Int
    /// Scratch buffer for `read`: only used on the loop, shared by its connections.
    let readBuffer: UnsafeMutableRawBufferPointer
    /// Loop-confined: touched only on the loop's thread (checked in debug builds).
    var connections: [ObjectIdentifier: HTTPConnection] = [:]
    /// Answers kept for replay (Replay.swift), when the server replays any: set before the
    /// loop's thread starts, loop-confined after.
    var replayMemo: ReplayMemo?
    /// The `Date` header value and its second, formatted once a second per loop (loop-confined:
    /// no lock shared with the other loops on every response).
    private var date: (second: Int, bytes: [UInt8]) = (-1, [])

    /// The current `Date` header value (IMF-fixdate), on the loop.
    func httpDate() -> [UInt8] {
        let t = time(nil)
        if date.second != t { date = (t, HTTPDate.format(t)) }
        return date.bytes
    }

    private let epollFD: Int32
    private let wakeFD: Int32
    /// Registrations by descriptor, each with the generation its events carry (a descriptor
    /// closed and reused within one batch of events never gets the old one's).
    private var registrants: [Registration?] = []
    private var generation: UInt32 = 0
    /// Jobs handed in from other threads; `wakePending` while an eventfd write is outstanding.
    private let inbox = Mutex(Inbox())
    /// Jobs queued on the loop itself, run after the current batch of events.
    private var local: [Job] = []
    private var timers = TimerHeap()
    private var tickNanos: UInt64 = 0
    private var tickTimer: UInt64?
    private let threadID = Atomic<UInt>(0)
    private let started = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Closures handed from other threads to run on the loop: whatever they capture is theirs
    /// to make safe (connections are loop-confined; results are values).
    private struct Inbox: @unchecked Sendable {
        var jobs: [Job] = []
        var wakePending = false
    }

    private struct Registration {
        let registrant: LoopRegistrant
        let generation: UInt32
        var interest: UInt32
    }

    init(index: Int) {
        self.index = index
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        precondition(epollFD >= 0 && wakeFD >= 0, "epoll_create1/eventfd failed: errno \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = UInt64(UInt32.max)
        epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
    }

    deinit {
        readBuffer.deallocate()
        Glibc.close(epollFD)
        Glibc.close(wakeFD)
    }

    /// Starts the loop's thread (once).
    func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        let thread = Thread { [self] in run() }
        thread.name = "http.loop.\(index)"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Ends the loop after the jobs already handed in; the registrations are dropped.
    func stop() {
        guard started.load(ordering: .acquiring) else { return }
        stopping.store(true, ordering: .releasing)
        wake()
    }

    /// Blocks until the loop's thread has ended (after ``stop()``), at most `seconds`.
    @discardableResult
    func waitUntilStopped(seconds: Double) -> Bool {
        guard started.load(ordering: .acquiring) else { return true }
        guard finished.wait(timeout: .now() + seconds) == .success else { return false }
        finished.signal()
        return true
    }

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool {
        let id = threadID.load(ordering: .relaxed)
        return id != 0 && pthread_equal(pthread_t(id), pthread_self()) != 0
    }

    /// Traps in debug builds when loop-confined state is touched from another thread (compiled
    /// out of release builds).
    @inline(__always)
    func assertOnLoop(_ function: StaticString = #function) {
        assert(isCurrent, "\(function) must run on event loop \(index)")
    }

    /// Runs `job` on the loop: after the current batch of events when called on it, otherwise
    /// as soon as the loop wakes.
    func execute(_ job: @escaping Job) {
        if isCurrent {
            local.append(job)
            return
        }
        let mustWake = inbox.withLock { box -> Bool in
            box.jobs.append(job)
            if box.wakePending { return false }
            box.wakePending = true
            return true
        }
        if mustWake { wake() }
    }

    /// Runs `job` on the loop once `nanos` have passed. Loop-confined. Returns the timer's id.
    @discardableResult
    func schedule(afterNanos nanos: UInt64, _ job: @escaping Job) -> UInt64 {
        assertOnLoop()
        return timers.insert(deadline: monotonicNanos() &+ nanos, job)
    }

    /// Cancels a timer that has not fired.
    func cancelTimer(_ id: UInt64) {
        timers.cancel(id)
    }

    func startTicking(every seconds: Double) {
        execute { [self] in
            tickNanos = max(1_000_000, UInt64(seconds * 1e9))
            armTick()
        }
    }

    func stopTicking() {
        execute { [self] in
            if let t = tickTimer { cancelTimer(t) }
            tickTimer = nil
            tickNanos = 0
        }
    }

    private func armTick() {
        guard tickNanos > 0 else { return }
        tickTimer = schedule(afterNanos: tickNanos) { [self] in
            tickTimer = nil
            tick()
            armTick()
        }
    }

    private func tick() {
        assertOnLoop()
        let now = monotonicNanos()
        for c in Array(connections.values) { c.tick(now) }
    }

    // MARK: - descriptors

    /// Watches `fd` for `registrant`, reading and/or writing. Loop-confined.
    func register(_ fd: Int32, _ registrant: LoopRegistrant, readable: Bool, writable: Bool) {
        assertOnLoop()
        let i = Int(fd)
        if i >= registrants.count { registrants += Array(repeating: nil, count: max(i + 1 - registrants.count, registrants.count)) }
        generation &+= 1
        if generation == UInt32.max { generation = 1 }
        let interest = Self.interest(readable: readable, writable: writable)
        registrants[i] = Registration(registrant: registrant, generation: generation, interest: interest)
        var event = epoll_event()
        event.events = interest
        event.data.u64 = UInt64(UInt32(bitPattern: fd)) << 32 | UInt64(generation)
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event)
    }

    /// Changes what `fd` is watched for (no system call when nothing changes). Loop-confined.
    func setInterest(_ fd: Int32, readable: Bool, writable: Bool) {
        assertOnLoop()
        let i = Int(fd)
        guard i < registrants.count, var r = registrants[i] else { return }
        let interest = Self.interest(readable: readable, writable: writable)
        guard interest != r.interest else { return }
        r.interest = interest
        registrants[i] = r
        var event = epoll_event()
        event.events = interest
        event.data.u64 = UInt64(UInt32(bitPattern: fd)) << 32 | UInt64(r.generation)
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Stops watching `fd` (before it is closed). Loop-confined.
    func unregister(_ fd: Int32) {
        assertOnLoop()
        let i = Int(fd)
        guard i < registrants.count, registrants[i] != nil else { return }
        registrants[i] = nil
        var event = epoll_event()
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
    }

    private static func interest(readable: Bool, writable: Bool) -> UInt32 {
        (readable ? EPOLLIN.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
    }

    // MARK: - the loop

    private func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        let capacity = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            var timeout: Int32 = -1
            if !local.isEmpty {
                timeout = 0
            } else if let next = timers.nextDeadline {
                let now = monotonicNanos()
                timeout = next <= now ? 0 : Int32(min(60_000, (next - now + 999_999) / 1_000_000))
            }
            let n = epoll_wait(epollFD, events, Int32(capacity), timeout)
            if n < 0, errno != EINTR { break }
            for k in 0..<max(0, Int(n)) {
                let e = events[k]
                let data = e.data.u64
                if data == UInt64(UInt32.max) {
                    var count: UInt64 = 0
                    _ = Glibc.read(wakeFD, &count, 8)
                    continue
                }
                let fd = Int(UInt32(truncatingIfNeeded: data >> 32))
                guard fd < registrants.count, let r = registrants[fd], r.generation == UInt32(truncatingIfNeeded: data) else { continue }
                let flags = e.events
                r.registrant.loopEvent(readable: flags & EPOLLIN.rawValue != 0, writable: flags & EPOLLOUT.rawValue != 0,
                                       failed: flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0)
            }
            runHandedIn()
            runLocal()
            if timers.nextDeadline != nil {
                let now = monotonicNanos()
                while let job = timers.popExpired(now: now) {
                    job()
                    runLocal()
                }
            }
            if stopping.load(ordering: .acquiring) {
                runHandedIn()
                runLocal()
                break
            }
        }
        registrants = []
        connections = [:]
        timers = TimerHeap()
        finished.signal()
    }

    private func runHandedIn() {
        let handedIn = inbox.withLock { box -> Inbox in
            defer { box = Inbox() }
            return box
        }
        for job in handedIn.jobs { job() }
    }

    private func runLocal() {
        var rounds = 0
        while !local.isEmpty, rounds < 64 {
            rounds += 1
            let jobs = local
            local = []
            for job in jobs { job() }
        }
    }
}

/// Timers of one loop: a binary heap by deadline (ties in order of insertion); cancelled ones
/// are skipped when they come up.
struct TimerHeap {
    private var heap: [(deadline: UInt64, id: UInt64)] = []
    private var jobs: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    var nextDeadline: UInt64? {
        mutating get {
            while let top = heap.first, jobs[top.id] == nil { removeTop() }
            return heap.first?.deadline
        }
    }

    mutating func insert(deadline: UInt64, _ job: @escaping () -> Void) -> UInt64 {
        let id = nextID
        nextID += 1
        jobs[id] = job
        heap.append((deadline, id))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
        return id
    }

    mutating func cancel(_ id: UInt64) {
        jobs[id] = nil
    }

    /// The job of the earliest timer due by `now`, removed; nil when none is due.
    mutating func popExpired(now: UInt64) -> (() -> Void)? {
        while let top = heap.first {
            guard let job = jobs[top.id] else {
                removeTop()
                continue
            }
            guard top.deadline <= now else { return nil }
            removeTop()
            jobs[top.id] = nil
            return job
        }
        return nil
    }

    private func less(_ a: (deadline: UInt64, id: UInt64), _ b: (deadline: UInt64, id: UInt64)) -> Bool {
        a.deadline < b.deadline || (a.deadline == b.deadline && a.id < b.id)
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, less(heap[l], heap[m]) { m = l }
            if r < heap.count, less(heap[r], heap[m]) { m = r }
            if m == i { break }
            heap.swapAt(i, m)
            i = m
        }
    }
}
