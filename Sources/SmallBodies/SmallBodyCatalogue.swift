/// Every loaded small body, from element files in order of precedence (a later file's record
/// replaces an earlier one of the same number or designation: the operator's `--elements`
/// files outrank the bundled set), with the names requests use:
///
/// - `sb:<number>` for numbered asteroids (`sb:1`, `sb:99942`);
/// - `sb:<designation slug>` for every body (`sb:2024-yr4`, `sb:1p`, `sb:67p`, `sb:c-1995-o1`,
///   and a numbered asteroid's provisional designation when its file gives one, `sb:2004-mn4`);
/// - the name slug where exactly one body has it (`ceres`, `apophis`, `hale-bopp`), unless it is
///   one of `reservedNames` (the engine's bodies: the asteroid 52 Europa is `sb:52`, never `europa`).
///
/// Immutable: a reload builds a new catalogue and swaps it in whole.
public struct SmallBodyCatalogue: Sendable {
    /// A body of the catalogue: its file and its index there.
    public struct Handle: Sendable, Hashable, Comparable {
        public let file: Int
        public let index: Int
        public init(file: Int, index: Int) {
            self.file = file
            self.index = index
        }
        public static func < (a: Handle, b: Handle) -> Bool { (a.file, a.index) < (b.file, b.index) }
    }

    public let files: [ElementFile]
    let numbers: [Int32: Handle]
    let designations: [String: Handle]
    /// Unique name slugs (ambiguous ones are left out).
    let names: [String: Handle]
    /// Every served body (not replaced by a later file), in file order.
    let served: [Handle]

    public static let empty = SmallBodyCatalogue(files: [], reservedNames: [])

    public init(files: [ElementFile], reservedNames: Set<String>) {
        self.files = files
        var numbers: [Int32: Handle] = [:]
        var designations: [String: Handle] = [:]
        var total = 0
        for f in files { total += f.count }
        numbers.reserveCapacity(min(total, 2_000_000))
        for (k, f) in files.enumerated() {
            for i in 0..<f.count {
                let handle = Handle(file: k, index: i)
                let c = f.bodies[i]
                if c.number != 0 { numbers[c.number] = handle }
                let id = f.identity(at: i)
                if c.number == 0 || id.designation != String(c.number) {
                    designations[Self.slug(id.designation)] = handle
                }
            }
        }
        // A body is served unless a later file holds it too.
        var served: [Handle] = []
        served.reserveCapacity(total)
        var nameCandidates: [String: Handle] = [:]
        var ambiguous: Set<String> = []
        for (k, f) in files.enumerated() {
            for i in 0..<f.count {
                let handle = Handle(file: k, index: i)
                let c = f.bodies[i]
                let id = f.identity(at: i)
                let current = c.number != 0 ? numbers[c.number] : designations[Self.slug(id.designation)]
                guard current == handle else { continue }
                served.append(handle)
                if let name = id.name {
                    let slug = Self.slug(name)
                    guard !slug.isEmpty, !reservedNames.contains(slug) else { continue }
                    if nameCandidates[slug] != nil { ambiguous.insert(slug) } else { nameCandidates[slug] = handle }
                }
            }
        }
        for slug in ambiguous { nameCandidates[slug] = nil }
        self.numbers = numbers
        self.designations = designations
        self.names = nameCandidates
        self.served = served
    }

    /// How many bodies are served.
    public var count: Int { served.count }

    public func body(_ h: Handle) -> SmallBody {
        var b = files[h.file].body(at: h.index)
        b.source.file = files[h.file].name
        return b
    }

    /// The body a request names: `sb:<number>`, `sb:<designation slug>` or a unique name slug
    /// (nil: none; `text` already lowercased as ids are).
    public func resolve(_ text: String) -> Handle? {
        if text.hasPrefix("sb:") {
            let key = String(text.dropFirst(3))
            if let n = Int32(key), String(n) == key, n > 0 { return numbers[n] }
            return designations[key]
        }
        return names[text]
    }

    /// The canonical id of a body: `sb:<number>` for numbered asteroids, else `sb:<designation slug>`.
    public func id(_ h: Handle) -> String {
        let f = files[h.file]
        let c = f.bodies[h.index]
        if c.number != 0 { return "sb:\(c.number)" }
        return "sb:" + Self.slug(f.identity(at: h.index).designation)
    }

    /// The name slug a body answers to, when it is unique.
    public func nameSlug(_ h: Handle) -> String? {
        guard let name = files[h.file].identity(at: h.index).name else { return nil }
        let slug = Self.slug(name)
        return names[slug] == h ? slug : nil
    }

    /// The loaded body numbered `number` (the perturbers are found this way).
    public func numbered(_ number: Int) -> Handle? {
        guard let n = Int32(exactly: number) else { return nil }
        return numbers[n]
    }

    /// Served bodies whose number, designation or name contains `query` (case-insensitive;
    /// empty: all), from `offset`, at most `limit`, and how many match in all.
    public func search(_ query: String, kind: SmallBody.Kind? = nil, offset: Int, limit: Int) -> (handles: [Handle], total: Int) {
        let q = Array(query.lowercased().utf8)
        var out: [Handle] = []
        var total = 0
        for h in served {
            let f = files[h.file]
            let c = f.bodies[h.index]
            if let kind, (kind == .comet) != c.isComet { continue }
            if !q.isEmpty {
                let start = Int(c.textOffset)
                let end = start + Int(c.designationLength) + Int(c.nameLength)
                let text = f.text[start..<end]
                let numberMatches = c.number != 0 && Self.contains(Array(String(c.number).utf8)[...], q)
                guard numberMatches || Self.contains(text, q) || Self.contains(Array(Self.slug(f.identity(at: h.index).designation).utf8)[...], q) else { continue }
            }
            if total >= offset, out.count < limit { out.append(h) }
            total += 1
        }
        return (out, total)
    }

    /// ASCII case-insensitive substring test.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        let h = haystack
        var i = h.startIndex
        let last = h.endIndex - needle.count
        while i <= last {
            var j = 0
            while j < needle.count, lower(h[i + j]) == needle[j] { j += 1 }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

    /// `2004 MN4` → `2004-mn4`, `C/1995 O1` → `c-1995-o1`, `Hale-Bopp` → `hale-bopp`: lower
    /// case, letters and digits kept, every run of anything else one `-`, none at the ends.
    public static func slug<S: StringProtocol>(_ text: S) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var dash = false
        func keep(_ bytes: some Sequence<UInt8>) {
            if dash, !out.isEmpty { out.append(UInt8(ascii: "-")) }
            dash = false
            out.append(contentsOf: bytes)
        }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for b in text.utf8 {
                switch b {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): keep(CollectionOfOne(b))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): keep(CollectionOfOne(b + 32))
                case UInt8(ascii: "'"): break
                default: dash = true
                }
            }
        } else {
            for scalar in text.lowercased().unicodeScalars {
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    keep(String(scalar).utf8)
                } else if scalar != "'" && scalar != "\u{2019}" {
                    dash = true
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
