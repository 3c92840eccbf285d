import Synchronization

/// A monotonically increasing counter family. With labels, `increment(labels:)` takes the
/// values in `labelNames` order; `child(_:)` returns a handle worth caching on hot paths.
public final class Counter: MetricFamily, Sendable {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "counter" }
    private let children = Mutex<[[String]: Child]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    /// One labelled series: lock-free, since both event loops count every request (a lock
    /// whose holder is preempted stalls the other loop's whole batch).
    public final class Child: Sendable {
        private let value = AtomicDouble()
        public func increment(by amount: Double = 1) {
            precondition(amount >= 0, "counters only go up")
            value.add(amount)
        }
        public var current: Double { value.load() }
    }

    public func child(_ labelValues: [String] = []) -> Child {
        precondition(labelValues.count == labelNames.count, "\(name) takes labels \(labelNames)")
        return children.withLock { children in
            if let c = children[labelValues] { return c }
            let c = Child()
            children[labelValues] = c
            return c
        }
    }

    public func increment(by amount: Double = 1, labels: [String] = []) {
        child(labels).increment(by: amount)
    }

    /// The current value of one series (0 when never incremented).
    public func value(labels: [String] = []) -> Double {
        children.withLock { $0[labels] }?.current ?? 0
    }

    func render(into out: inout [UInt8]) {
        let snapshot = children.withLock { $0.map { ($0.key, $0.value) } }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        if snapshot.isEmpty, labelNames.isEmpty {
            out.append(contentsOf: "\(name) 0\n".utf8)
        }
        for (labels, child) in snapshot {
            out.append(contentsOf: "\(name)\(renderLabels(labelNames, labels)) \(formatMetricValue(child.current))\n".utf8)
        }
    }
}

/// A gauge family: a value that goes up and down.
public final class Gauge: MetricFamily, Sendable {
    public let name: String
    public let help: String
    public let labelNames: [String]
    var typeName: String { "gauge" }
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
    }

    public func set(_ value: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "\(name) takes labels \(labelNames)")
        values.withLock { $0[labels] = value }
    }

    public func add(_ delta: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "\(name) takes labels \(labelNames)")
        values.withLock { $0[labels, default: 0] += delta }
    }

    public func value(labels: [String] = []) -> Double { values.withLock { $0[labels] ?? 0 } }

    func render(into out: inout [UInt8]) {
        let snapshot = values.withLock { $0.map { ($0.key, $0.value) } }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        if snapshot.isEmpty, labelNames.isEmpty {
            out.append(contentsOf: "\(name) 0\n".utf8)
        }
        for (labels, v) in snapshot {
            out.append(contentsOf: "\(name)\(renderLabels(labelNames, labels)) \(formatMetricValue(v))\n".utf8)
        }
    }
}

/// A single sample read at scrape time, exposed as a gauge or a counter.
final class CallbackGauge: MetricFamily, Sendable {
    let name: String
    let help: String
    let typeName: String
    let observe: @Sendable () -> Double

    init(name: String, help: String, type: String, observe: @escaping @Sendable () -> Double) {
        self.name = name
        self.help = help
        self.typeName = type
        self.observe = observe
    }

    func render(into out: inout [UInt8]) {
        out.append(contentsOf: "\(name) \(formatMetricValue(observe()))\n".utf8)
    }
}

/// A histogram family with cumulative `le` buckets, `_sum` and `_count`.
public final class Histogram: MetricFamily, Sendable {
    public static let defaultLatencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    public let name: String
    public let help: String
    public let labelNames: [String]
    public let buckets: [Double]
    var typeName: String { "histogram" }
    private let children = Mutex<[[String]: Child]>([:])

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        precondition(!buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 }, "buckets must ascend")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = buckets
    }

    /// One labelled series, lock-free like the counters' (every request observes one). A
    /// snapshot taken while observations land may see a bucket before its count: the count
    /// rendered is never below the buckets' total.
    public final class Child: Sendable {
        private final class Cell: Sendable {
            let value = Atomic<UInt64>(0)
        }
        private let bounds: [Double]
        private let counts: [Cell]
        private let sum = AtomicDouble()
        private let count = Atomic<UInt64>(0)

        init(bounds: [Double]) {
            self.bounds = bounds
            counts = bounds.map { _ in Cell() }
        }

        public func observe(_ value: Double) {
            var i = 0
            while i < bounds.count, value > bounds[i] { i += 1 }
            if i < counts.count { counts[i].value.add(1, ordering: .relaxed) }
            sum.add(value)
            count.add(1, ordering: .relaxed)
        }

        var snapshot: (counts: [UInt64], sum: Double, count: UInt64) {
            let c = counts.map { $0.value.load(ordering: .relaxed) }
            return (c, sum.load(), max(count.load(ordering: .relaxed), c.reduce(0, +)))
        }
        public var observationCount: UInt64 { count.load(ordering: .relaxed) }
    }

    public func child(_ labelValues: [String] = []) -> Child {
        precondition(labelValues.count == labelNames.count, "\(name) takes labels \(labelNames)")
        return children.withLock { children in
            if let c = children[labelValues] { return c }
            let c = Child(bounds: buckets)
            children[labelValues] = c
            return c
        }
    }

    public func observe(_ value: Double, labels: [String] = []) { child(labels).observe(value) }

    func render(into out: inout [UInt8]) {
        let snapshot = children.withLock { $0.map { ($0.key, $0.value) } }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
        for (labels, child) in snapshot {
            let s = child.snapshot
            var cumulative: UInt64 = 0
            for (i, bound) in buckets.enumerated() {
                cumulative += s.counts[i]
                out.append(contentsOf: "\(name)_bucket\(renderLabels(labelNames, labels, extra: ("le", formatMetricValue(bound)))) \(cumulative)\n".utf8)
            }
            out.append(contentsOf: "\(name)_bucket\(renderLabels(labelNames, labels, extra: ("le", "+Inf"))) \(s.count)\n".utf8)
            out.append(contentsOf: "\(name)_sum\(renderLabels(labelNames, labels)) \(formatMetricValue(s.sum))\n".utf8)
            out.append(contentsOf: "\(name)_count\(renderLabels(labelNames, labels)) \(s.count)\n".utf8)
        }
    }
}

/// A Double updated without a lock (compare-and-swap on its bits).
final class AtomicDouble: Sendable {
    private let bits = Atomic<UInt64>(0)

    func add(_ amount: Double) {
        var old = bits.load(ordering: .relaxed)
        while true {
            let (exchanged, seen) = bits.weakCompareExchange(expected: old, desired: (Double(bitPattern: old) + amount).bitPattern, ordering: .relaxed)
            if exchanged { return }
            old = seen
        }
    }

    func load() -> Double { Double(bitPattern: bits.load(ordering: .relaxed)) }
}
