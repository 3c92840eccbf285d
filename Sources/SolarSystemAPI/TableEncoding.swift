/// A table's body — a `/v1/positions/{id}` series, a `/v1/sky` observer table — as the API
/// sends it: whole when it is short (encoded once and cached), or a range of rows at a time as
/// the connection drains (`V1API.streamedPlan`). Either way the same calls write it: the head,
/// the rows in order, the tail.
protocol TableEncoding: Sendable {
    /// The rows (`0..<count`).
    var count: Int { get }
    /// Everything before the first row.
    mutating func head() -> [UInt8]
    /// Rows `range`, following the rows before it. A row that cannot be written throws: the
    /// body ends there, visibly (a streamed one without its last chunk).
    mutating func rows(_ range: Range<Int>) throws -> [UInt8]
    /// Everything after the last row.
    mutating func tail() -> [UInt8]
}

extension TableEncoding {
    /// The whole body in one buffer.
    func whole() throws -> [UInt8] {
        var table = self
        var out = table.head()
        out += try table.rows(0..<count)
        out += table.tail()
        return out
    }
}

/// CSV: a header line, then one line per row (or per row and body).
struct CSVTable: TableEncoding {
    let header: [UInt8]
    let count: Int
    let encode: @Sendable (Range<Int>) throws -> [UInt8]

    mutating func head() -> [UInt8] { header }
    mutating func rows(_ range: Range<Int>) throws -> [UInt8] { try encode(range) }
    mutating func tail() -> [UInt8] { [] }
}

/// JSON: `{leading members…,"samples":[row,row,…]}`, written in one `JSONWriter.Stream` whose
/// `samples` array stays open from piece to piece, so the commas between rows are the writer's
/// and nothing is patched.
struct JSONTable: TableEncoding {
    let count: Int
    private var document: JSONWriter.Stream
    private let encode: @Sendable (Range<Int>, inout JSONWriter.Stream) throws -> Void

    /// `leading` writes the members before `samples`; `rows` writes rows `range` as elements of
    /// the open `samples` array (`document.write { w in w.object { … } }`, or encoded elements).
    init(count: Int, leading: (inout JSONWriter) -> Void, rows: @escaping @Sendable (Range<Int>, inout JSONWriter.Stream) throws -> Void) {
        self.count = count
        encode = rows
        document = JSONWriter.Stream()
        document.openObject(leading)
        document.openArray("samples")
    }

    mutating func head() -> [UInt8] { document.chunk() }

    mutating func rows(_ range: Range<Int>) throws -> [UInt8] {
        try encode(range, &document)
        return document.chunk()
    }

    mutating func tail() -> [UInt8] {
        document.close() // samples
        document.close() // the object
        return document.chunk()
    }
}
