import Synchronization

/// A thread-safe Prometheus registry (text exposition format 0.0.4). The server registers its
/// own series here; other modules add counters, gauges and histograms with labels.
///
/// ```swift
/// let hits = registry.counter("cache_hits_total", help: "Sample cache hits.", labelNames: ["kind"])
/// hits.increment(labels: ["trajectory"])
/// registry.gauge("sse_streams", help: "Open streams.") { Double(streams.count) }
/// ```
/// Label values must have bounded cardinality (route patterns, never raw paths).
public final class MetricsRegistry: Sendable {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private struct Families {
        var byName: [String: MetricFamily] = [:]
        var order: [String] = []
    }
    private let families = Mutex(Families())

    public init() {}

    /// A counter family (get-or-create: the same name returns the same counter).
    public func counter(_ name: String, help: String, labelNames: [String] = []) -> Counter {
        family(name) { Counter(name: name, help: help, labelNames: labelNames) }
    }

    /// A gauge family you set or add to.
    public func gauge(_ name: String, help: String, labelNames: [String] = []) -> Gauge {
        family(name) { Gauge(name: name, help: help, labelNames: labelNames) }
    }

    /// A gauge read at scrape time from `observe` (one sample, no labels).
    public func gauge(_ name: String, help: String, observe: @escaping @Sendable () -> Double) {
        _ = family(name) { CallbackGauge(name: name, help: help, type: "gauge", observe: observe) } as CallbackGauge
    }

    /// A counter read at scrape time from `observe` (one sample, no labels): for totals another
    /// component keeps (cache hits, dropped log lines).
    public func counter(_ name: String, help: String, observe: @escaping @Sendable () -> Double) {
        _ = family(name) { CallbackGauge(name: name, help: help, type: "counter", observe: observe) } as CallbackGauge
    }

    /// A histogram family with cumulative buckets (upper bounds in ascending order).
    public func histogram(_ name: String, help: String, labelNames: [String] = [], buckets: [Double] = Histogram.defaultLatencyBuckets) -> Histogram {
        family(name) { Histogram(name: name, help: help, labelNames: labelNames, buckets: buckets) }
    }

    private func family<F: MetricFamily>(_ name: String, make: () -> F) -> F {
        precondition(MetricsRegistry.isValidName(name), "invalid metric name \(name)")
        return families.withLock { families in
            if let existing = families.byName[name] {
                guard let typed = existing as? F else { preconditionFailure("metric \(name) already registered with another type") }
                return typed
            }
            let f = make()
            families.byName[name] = f
            families.order.append(name)
            return f
        }
    }

    /// The exposition text of every family, in registration order.
    public func render() -> [UInt8] {
        let list: [MetricFamily] = families.withLock { f in f.order.compactMap { f.byName[$0] } }
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        for f in list {
            out.append(contentsOf: "# HELP \(f.name) \(escapeHelp(f.help))\n# TYPE \(f.name) \(f.typeName)\n".utf8)
            f.render(into: &out)
        }
        return out
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
        }
    }

    private func escapeHelp(_ s: String) -> String {
        s.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n")
    }
}

protocol MetricFamily: AnyObject, Sendable {
    var name: String { get }
    var help: String { get }
    var typeName: String { get }
    func render(into out: inout [UInt8])
}

/// Formats a sample value the way Prometheus parses it.
func formatMetricValue(_ v: Double) -> String {
    if v.isNaN { return "NaN" }
    if v == .infinity { return "+Inf" }
    if v == -.infinity { return "-Inf" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
}

func renderLabels(_ names: [String], _ values: [String], extra: (String, String)? = nil) -> String {
    var pairs = zip(names, values).map { ($0, $1) }
    if let extra { pairs.append(extra) }
    guard !pairs.isEmpty else { return "" }
    return "{" + pairs.map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }.joined(separator: ",") + "}"
}

func escapeLabelValue(_ s: String) -> String {
    guard s.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == 0x0A }) else { return s }
    return s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("\n", with: "\\n")
}

extension String {
    /// Plain substring replacement (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let r = rest.utf8Range(of: target) {
            result += rest[rest.startIndex..<r.lowerBound]
            result += replacement
            rest = rest[r.upperBound...]
        }
        result += rest
        return result
    }
}

extension Substring {
    func utf8Range(of target: String) -> Range<Substring.Index>? {
        let t = Array(target.utf8)
        let u = self.utf8
        guard !t.isEmpty, u.count >= t.count else { return nil }
        var i = u.startIndex
        while i != u.endIndex {
            if u[i] == t[0] {
                var j = i, k = 0
                while k < t.count, j != u.endIndex, u[j] == t[k] { j = u.index(after: j); k += 1 }
                if k == t.count { return i..<j }
            }
            i = u.index(after: i)
        }
        return nil
    }
}
