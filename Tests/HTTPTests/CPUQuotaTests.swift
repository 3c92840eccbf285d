import Foundation
import Testing
@testable import HTTPCore

@Suite("CPU quota")
struct CPUQuotaTests {
    @Test("cgroup v2 cpu.max", arguments: [
        ("max 100000\n", nil), ("100000 100000\n", 1.0), ("150000 100000", 1.5), ("50000 100000\n", 0.5),
        ("200000 50000", 4.0), ("", nil), ("garbage", nil), ("-1 100000", nil), ("100000 0", nil), ("1 2 3", nil),
    ] as [(String, Double?)])
    func v2(text: String, expected: Double?) {
        #expect(CPUQuota.parseV2(text) == expected)
    }

    @Test("cgroup v1 cfs quota and period")
    func v1() {
        #expect(CPUQuota.parseV1(quota: "-1\n", period: "100000\n") == nil)
        #expect(CPUQuota.parseV1(quota: "250000\n", period: "100000\n") == 2.5)
        #expect(CPUQuota.parseV1(quota: "x", period: "100000") == nil)
    }

    @Test("cores: the quota rounded up, at least 1, at most the online CPUs")
    func cores() {
        #expect(CPUQuota.cores(limit: nil, online: 64) == 64)
        #expect(CPUQuota.cores(limit: 1.5, online: 64) == 2)
        #expect(CPUQuota.cores(limit: 2, online: 64) == 2)
        #expect(CPUQuota.cores(limit: 0.1, online: 64) == 1)
        #expect(CPUQuota.cores(limit: 8, online: 2) == 2)
        #expect(CPUQuota.cores(limit: nil, online: 0) == 1)
    }

    @Test("read from a cgroup tree: v2 first, then v1's directories")
    func readTree() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cpuquota-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cpu,cpuacct"), withIntermediateDirectories: true)
        #expect(CPUQuota.read(root: root.path) == nil)
        try "300000\n".write(to: root.appendingPathComponent("cpu,cpuacct/cpu.cfs_quota_us"), atomically: true, encoding: .utf8)
        try "100000\n".write(to: root.appendingPathComponent("cpu,cpuacct/cpu.cfs_period_us"), atomically: true, encoding: .utf8)
        #expect(CPUQuota.read(root: root.path) == 3)
        try "max 100000\n".write(to: root.appendingPathComponent("cpu.max"), atomically: true, encoding: .utf8)
        #expect(CPUQuota.read(root: root.path) == nil)
        try "120000 100000\n".write(to: root.appendingPathComponent("cpu.max"), atomically: true, encoding: .utf8)
        #expect(CPUQuota.read(root: root.path) == 1.2)
    }
}
