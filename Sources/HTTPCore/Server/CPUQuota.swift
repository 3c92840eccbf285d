import Foundation

/// The CPU limit a container runtime puts on this process through the cgroup CPU controller
/// (Kubernetes' `resources.limits.cpu`, `docker run --cpus`), so the server sizes its event
/// loops and worker pool by the CPUs it may use rather than the node's cores.
///
/// ```swift
/// CPUQuota.cores(limit: CPUQuota.parseV2("150000 100000"), online: 64) // 2
/// ```
public enum CPUQuota {
    /// CPUs allowed by cgroup v2's `cpu.max` (`"<quota> <period>"`, quota `max` when unlimited);
    /// nil when unlimited or malformed.
    public static func parseV2(_ cpuMax: String) -> Double? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2, fields[0] != "max" else { return nil }
        return ratio(quota: fields[0], period: fields[1])
    }

    /// CPUs allowed by cgroup v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` (quota -1 when
    /// unlimited); nil when unlimited or malformed.
    public static func parseV1(quota: String, period: String) -> Double? {
        ratio(quota: Substring(quota).trimmingWhitespace(), period: Substring(period).trimmingWhitespace())
    }

    /// Whole CPUs to use: the quota rounded up, at least 1, at most `online`; `online` when
    /// there is no quota.
    public static func cores(limit: Double?, online: Int) -> Int {
        let online = max(1, online)
        guard let limit else { return online }
        return min(online, max(1, Int(limit.rounded(.up))))
    }

    /// The quota of this process's cgroup, read once: v2 (`/sys/fs/cgroup/cpu.max`) first, then
    /// v1 (`/sys/fs/cgroup/cpu/cpu.cfs_quota_us` or `cpu,cpuacct`); nil when none is set.
    public static let limit: Double? = read(root: "/sys/fs/cgroup")

    /// Online CPUs.
    public static var onlineCPUs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Whole CPUs this process may use (`cores(limit:online:)` of the live values).
    public static var effectiveCores: Int { cores(limit: limit, online: onlineCPUs) }

    /// The quota read from a cgroup file tree rooted at `root` (tests pass a fixture directory).
    public static func read(root: String) -> Double? {
        func contents(_ path: String) -> String? { try? String(contentsOfFile: root + "/" + path, encoding: .utf8) }
        if let v2 = contents("cpu.max") { return parseV2(v2) }
        for dir in ["cpu", "cpu,cpuacct", "cpuacct,cpu"] {
            if let quota = contents(dir + "/cpu.cfs_quota_us"), let period = contents(dir + "/cpu.cfs_period_us") {
                return parseV1(quota: quota, period: period)
            }
        }
        return nil
    }

    private static func ratio(quota: Substring, period: Substring) -> Double? {
        guard let q = Int64(quota), let p = Int64(period), q > 0, p > 0 else { return nil }
        return Double(q) / Double(p)
    }
}

private extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
