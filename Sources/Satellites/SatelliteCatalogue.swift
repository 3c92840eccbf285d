/// One satellite the server knows: its element set, ready to propagate, and its names.
public struct Satellite: Sendable {
    /// The public id: `iss` for NORAD 25544, `norad:NNNNN` for the others.
    public let id: String
    /// The name as a lowercase slug (`starlink-1007`), when the set had a name and the slug is
    /// unambiguous and not an engine body's id.
    public let slug: String?
    public let propagator: SGP4
    /// Where the set came from: file name, and line (TLE, XML) or record (JSON).
    public let source: String
    public let line: Int?
    public let record: Int?

    public var elements: ElementSet { propagator.elements }
    public var noradID: Int { elements.noradID }
}

/// The satellites of the loaded element-set files. Later files override earlier ones by NORAD
/// number (the bundled ISS set first, then the operator's `--tle` file); a set SGP4 rejects at
/// its own epoch is a problem, not a satellite.
public struct SatelliteCatalogue: Sendable {
    /// NORAD number of the International Space Station, the engine's body `iss`.
    public static let issNoradID = 25_544

    public let satellites: [Satellite]
    /// Every record that could not be used, with its file.
    public let problems: [(file: String, error: ElementSetError)]
    let byNorad: [Int: Int]
    let bySlug: [String: Int]

    public static let empty = SatelliteCatalogue(files: [], reservedNames: [])

    /// `reservedNames` are ids a slug may not take (the engine's bodies).
    ///
    /// Every set is initialised once, and kept once: the sets a later file overrides are
    /// dropped as they are met, and the list is sorted in place (100,000 sets are 50 MB; an
    /// extra copy of them at a reload is what the memory budget cannot spare).
    public init(files: [(name: String, file: ElementSetFile)], reservedNames: Set<String>) {
        var built: [Satellite] = []
        var alive: [Bool] = []
        var latest: [Int: Int] = [:]
        var problems: [(String, ElementSetError)] = []
        for (name, file) in files {
            for p in file.problems { problems.append((name, p)) }
            for entry in file.entries {
                let e = entry.elements
                do {
                    let sgp4 = try SGP4(e)
                    let id = e.noradID == Self.issNoradID ? "iss" : "norad:\(e.noradID)"
                    if let earlier = latest[e.noradID] { alive[earlier] = false }
                    latest[e.noradID] = built.count
                    built.append(Satellite(id: id, slug: e.name.flatMap(Self.slug), propagator: sgp4,
                                           source: name, line: entry.line, record: entry.record))
                    alive.append(true)
                } catch {
                    problems.append((name, ElementSetError(line: entry.line, record: entry.record,
                                                           satellite: e.name ?? String(e.noradID),
                                                           reason: "SGP4 rejects the set at its epoch: \(error)")))
                }
            }
        }
        latest = [:]
        // Drop the overridden sets and sort by NORAD number, in place.
        var kept = 0
        for i in built.indices where alive[i] {
            built.swapAt(kept, i)
            kept += 1
        }
        built.removeLast(built.count - kept)
        alive = []
        Self.sortInPlace(&built)
        var slugCount: [String: Int] = [:]
        for s in built { if let slug = s.slug { slugCount[slug, default: 0] += 1 } }
        for i in built.indices {
            let s = built[i]
            if let slug = s.slug, slugCount[slug] == 1, !reservedNames.contains(slug), slug != s.id { continue }
            if s.slug != nil { built[i] = Satellite(id: s.id, slug: nil, propagator: s.propagator, source: s.source, line: s.line, record: s.record) }
        }
        satellites = built
        self.problems = problems
        byNorad = Dictionary(uniqueKeysWithValues: satellites.enumerated().map { ($1.noradID, $0) })
        bySlug = Dictionary(uniqueKeysWithValues: satellites.enumerated().compactMap { i, s in s.slug.map { ($0, i) } })
    }

    /// Sorts by NORAD number without a second buffer of satellites (the standard sort's merge
    /// buffer would be half the list): the order is found on the numbers, then applied by
    /// following its cycles.
    static func sortInPlace(_ list: inout [Satellite]) {
        let order = list.indices.sorted { list[$0].noradID < list[$1].noradID }
        var placed = [Bool](repeating: false, count: list.count)
        for start in list.indices where !placed[start] {
            // Position k takes the element at order[k]; walk the cycle through start.
            var k = start
            while true {
                placed[k] = true
                let from = order[k]
                if from == start { break }
                list.swapAt(k, from)
                k = from
            }
        }
    }

    /// By `iss`, `norad:NNNNN` or slug; nil when unknown.
    public func satellite(named name: String) -> Satellite? {
        if name == "iss" { return byNorad[Self.issNoradID].map { satellites[$0] } }
        if name.hasPrefix("norad:"), let n = Int(name.dropFirst(6)), String(n) == name.dropFirst(6) {
            return byNorad[n].map { satellites[$0] }
        }
        return bySlug[name].map { satellites[$0] }
    }

    public func satellite(norad: Int) -> Satellite? { byNorad[norad].map { satellites[$0] } }

    /// `ISS (ZARYA)` → `iss-zarya`: lowercase letters and digits, other runs as one `-`.
    public static func slug(_ name: String) -> String? {
        var out = ""
        var dash = false
        for c in name.lowercased().unicodeScalars {
            if (c >= "a" && c <= "z") || (c >= "0" && c <= "9") {
                if dash && !out.isEmpty { out.append("-") }
                out.unicodeScalars.append(c)
                dash = false
            } else {
                dash = true
            }
        }
        return out.isEmpty || out.count > 64 ? nil : out
    }
}
