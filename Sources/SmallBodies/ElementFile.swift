/// The bodies of one element file — JPL SBDB JSON, MPCORB lines or MPC comet lines, told apart
/// by the content — with every record that could not be used, by line (or JSON record) and
/// reason. One bad record never hides the good ones.
///
/// Built by ``ElementFileParser`` from bytes handed in chunk by chunk (the module does no I/O),
/// so the MPC's whole 290 MB asteroid file never has to be in memory at once. Bounded whatever
/// the file holds: at most ``maxBodies`` bodies (a repeated designation is one body: the first
/// record is kept, the others reported), ``maxLineBytes`` per line, ``maxJSONBytes`` of JSON, and
/// the first ``maxProblems`` problems kept (all are counted).
public struct ElementFile: Sendable {
    /// The file as the operator named it (`--elements` path, or the bundled file's name).
    public let name: String
    public let format: ElementFormat
    var bodies: [CompactBody]
    var text: [UInt8]
    var extras: [BodyExtras]
    /// The first ``maxProblems`` records not used, in file order.
    public internal(set) var problems: [ElementFileError]
    /// Every record not used (``problems`` keeps the first of them).
    public internal(set) var problemCount: Int

    /// Two million bodies: the MPC's file holds 1.4 million.
    public static let maxBodies = 2_000_000
    /// 512 MiB: the MPC's MPCORB.DAT is about 290 MB.
    public static let maxBytes = 512 << 20
    /// An SBDB answer is tens of kilobytes; a file of them is read whole, up to 64 MiB.
    public static let maxJSONBytes = 64 << 20
    /// The longest line read (MPCORB lines are 202 bytes; comet lines 168).
    public static let maxLineBytes = 1_024
    public static let maxProblems = 1_000

    /// How many bodies the file gives.
    public var count: Int { bodies.count }

    /// Body `index` (0..<count) in full.
    public func body(at index: Int) -> SmallBody {
        let c = bodies[index]
        let start = Int(c.textOffset)
        let designation = String(decoding: text[start..<start + Int(c.designationLength)], as: UTF8.self)
        let nameStart = start + Int(c.designationLength)
        let name = c.nameLength == 0 ? nil : String(decoding: text[nameStart..<nameStart + Int(c.nameLength)], as: UTF8.self)
        let extra = c.extras >= 0 ? extras[Int(c.extras)] : nil
        let brightness: SmallBody.Brightness?
        if c.magnitude.isNaN {
            brightness = nil
        } else if c.isComet {
            brightness = .comet(m1: Self.decimal(c.magnitude), k1: c.slope.isNaN ? 10 : Self.decimal(c.slope))
        } else {
            brightness = .asteroid(h: Self.decimal(c.magnitude), g: c.slope.isNaN ? 0.15 : Self.decimal(c.slope))
        }
        return SmallBody(number: c.number == 0 ? nil : Int(c.number), designation: designation, name: name, kind: c.isComet ? .comet : .asteroid,
                         elements: c.elements, nonGravitational: extra?.nonGravitational, brightness: brightness, orbitClass: extra?.orbitClass,
                         solution: extra?.solution, physical: extra?.physical, source: SmallBody.Source(file: self.name, format: format, line: Int(c.line)))
    }

    /// A magnitude parameter kept as a `Float` read back as the decimal it was written as: every
    /// source gives them to at most three decimals (H 3.4, G 0.15, K1 13), which four decimals
    /// restore exactly.
    static func decimal(_ f: Float) -> Double { (Double(f) * 10_000).rounded() / 10_000 }

    /// The designation and name of body `index` without building the rest.
    func identity(at index: Int) -> (number: Int32, designation: Substring, name: Substring?) {
        let c = bodies[index]
        let start = Int(c.textOffset)
        let designation = Substring(decoding: text[start..<start + Int(c.designationLength)], as: UTF8.self)
        let nameStart = start + Int(c.designationLength)
        let name = c.nameLength == 0 ? nil : Substring(decoding: text[nameStart..<nameStart + Int(c.nameLength)], as: UTF8.self)
        return (c.number, designation, name)
    }

    init(name: String, format: ElementFormat) {
        self.name = name
        self.format = format
        bodies = []
        text = []
        extras = []
        problems = []
        problemCount = 0
    }

    /// Parses a whole file held in memory (tests, the bundled files).
    public init(name: String, bytes: [UInt8]) throws(ElementFileError) {
        var parser = ElementFileParser(name: name)
        try parser.consume(bytes)
        self = try parser.finish()
    }

    mutating func report(_ problem: ElementFileError) {
        problemCount += 1
        if problems.count < Self.maxProblems { problems.append(problem) }
    }

    /// Appends a body (already checked) with its text; false when the file is full.
    mutating func append(_ body: SmallBody, line: Int) {
        var c = CompactBody(epoch: body.elements.epochJDTDB, q: body.elements.perihelionAU, e: body.elements.eccentricity,
                            i: body.elements.inclinationDeg, node: body.elements.ascendingNodeDeg, peri: body.elements.argumentOfPerihelionDeg,
                            tp: body.elements.perihelionJDTDB, m: body.elements.meanAnomalyDeg ?? .nan, magnitude: .nan, slope: .nan,
                            number: Int32(body.number ?? 0), textOffset: 0, designationLength: 0, nameLength: 0,
                            isComet: body.kind == .comet, line: UInt32(clamping: line), extras: -1)
        switch body.brightness {
        case let .asteroid(h, g)?: c.magnitude = Float(h); c.slope = Float(g)
        case let .comet(m1, k1)?: c.magnitude = Float(m1); c.slope = Float(k1)
        case nil: break
        }
        setText(&c, designation: Array(body.designation.utf8), name: body.name.map { Array($0.utf8) } ?? [])
        if body.nonGravitational != nil || body.solution != nil || body.physical != nil || body.orbitClass != OrbitClass.classify(body.elements, kind: body.kind) {
            c.extras = Int32(extras.count)
            extras.append(BodyExtras(nonGravitational: body.nonGravitational, orbitClass: body.orbitClass, solution: body.solution, physical: body.physical))
        }
        bodies.append(c)
    }

    mutating func setText(_ c: inout CompactBody, designation: [UInt8], name: [UInt8]) {
        c.textOffset = UInt32(text.count)
        c.designationLength = UInt8(min(designation.count, 255))
        c.nameLength = UInt8(min(name.count, 255))
        text.append(contentsOf: designation.prefix(255))
        text.append(contentsOf: name.prefix(255))
    }
}
