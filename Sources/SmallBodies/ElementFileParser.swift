/// Reads an element file from bytes handed in chunk by chunk (`consume`), then `finish`. The
/// format is told from the content: `{` or `[` first is JPL SBDB JSON (kept and parsed whole at
/// the end); otherwise lines, the first that reads as an MPCORB or an MPC comet record deciding
/// (lines before it are a header: MPCORB.DAT has one). A file with no such line in its first
/// ``ElementFileParser/headerLimit`` lines is not an element file.
///
/// ```swift
/// var parser = ElementFileParser(name: "MPCORB.DAT")
/// try parser.consume(chunk)        // as often as there are chunks
/// let file = try parser.finish()   // file.count bodies; file.problems by line and reason
/// ```
public struct ElementFileParser: Sendable {
    enum Mode: Sendable { case undecided, json, lines(ElementFormat) }

    var file: ElementFile
    var mode: Mode = .undecided
    var json: [UInt8] = []
    var partial: [UInt8] = []
    var partialTooLong = false
    var lineNumber = 0
    var bytesRead = 0
    var full = false
    /// Whether anything but whitespace has been read (JSON is told by its first such byte).
    var sawContent = false
    /// Dedupe: the first record of each key is kept.
    var numbers: [Int32: UInt32] = [:]
    var designations: [String: UInt32] = [:]

    /// Lines without a record allowed before the first one (MPCORB.DAT's header is 40).
    public static let headerLimit = 200

    public init(name: String) {
        file = ElementFile(name: name, format: .mpcorb)
    }

    public mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(ElementFileError) {
        bytesRead += chunk.count
        guard bytesRead <= ElementFile.maxBytes else {
            throw ElementFileError(reason: "more than \(ElementFile.maxBytes) bytes: not read")
        }
        var bytes = chunk.bindMemory(to: UInt8.self)[...]
        if case .undecided = mode, !sawContent, let first = bytes.first(where: { !Self.isSpace($0) }) {
            sawContent = true
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                mode = .json
                file = ElementFile(name: file.name, format: .sbdbJSON)
                partial = []
            }
        }
        if case .json = mode {
            guard json.count + bytes.count <= ElementFile.maxJSONBytes else {
                throw ElementFileError(reason: "a JSON element file of more than \(ElementFile.maxJSONBytes) bytes is not read")
            }
            json.append(contentsOf: bytes)
            return
        }
        while !bytes.isEmpty {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                appendPartial(bytes)
                return
            }
            if partial.isEmpty, !partialTooLong {
                try line(UnsafeBufferPointer(rebasing: bytes[bytes.startIndex..<newline]))
            } else {
                appendPartial(bytes[bytes.startIndex..<newline])
                try flushPartial()
            }
            bytes = bytes[(newline + 1)...]
        }
    }

    /// `consume` for bytes held in an array.
    public mutating func consume(_ bytes: [UInt8]) throws(ElementFileError) {
        var failure: ElementFileError?
        bytes.withUnsafeBytes { raw in
            do throws(ElementFileError) { try consume(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public mutating func finish() throws(ElementFileError) -> ElementFile {
        switch mode {
        case .json:
            try SBDBReader.read(json, into: &self)
            json = []
        case .undecided, .lines:
            if !partial.isEmpty || partialTooLong { try flushPartial() }
            if case .undecided = mode {
                throw ElementFileError(reason: lineNumber == 0 ? "the file is empty" : "no line reads as an MPCORB or MPC comet record: not an element file")
            }
        }
        numbers = [:]
        designations = [:]
        return file
    }

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    mutating func appendPartial(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        guard !partialTooLong else { return }
        if partial.count + bytes.count > ElementFile.maxLineBytes {
            partialTooLong = true
            partial = []
        } else {
            partial.append(contentsOf: bytes)
        }
    }

    mutating func flushPartial() throws(ElementFileError) {
        if partialTooLong {
            lineNumber += 1
            file.report(ElementFileError(line: lineNumber, reason: "longer than \(ElementFile.maxLineBytes) bytes: not an element record"))
        } else {
            let held = partial
            var failure: ElementFileError?
            held.withUnsafeBufferPointer { p in
                do throws(ElementFileError) { try line(p) } catch { failure = error }
            }
            if let failure { throw failure }
        }
        partial = []
        partialTooLong = false
    }

    /// One line (without its newline; a trailing CR is dropped).
    mutating func line(_ raw: UnsafeBufferPointer<UInt8>) throws(ElementFileError) {
        lineNumber += 1
        var count = raw.count
        while count > 0, raw[count - 1] == 0x0D || raw[count - 1] == 0x20 { count -= 1 }
        guard count > 0 else { return }
        let text = UnsafeBufferPointer(rebasing: raw[0..<count])
        if text.count > ElementFile.maxLineBytes {
            file.report(ElementFileError(line: lineNumber, reason: "longer than \(ElementFile.maxLineBytes) bytes: not an element record"))
            return
        }
        switch mode {
        case .json:
            return
        case .undecided:
            if case .success = MPCLines.asteroid(text) {
                mode = .lines(.mpcorb)
                file = ElementFile(name: file.name, format: .mpcorb)
            } else if case .success = MPCLines.comet(text) {
                mode = .lines(.mpcComets)
                file = ElementFile(name: file.name, format: .mpcComets)
            } else {
                guard lineNumber < Self.headerLimit else {
                    throw ElementFileError(reason: "no line in the first \(Self.headerLimit) reads as an MPCORB or MPC comet record: not an element file")
                }
                return
            }
            try line(text, format: file.format)
        case .lines(let format):
            try line(text, format: format)
        }
    }

    mutating func line(_ text: UnsafeBufferPointer<UInt8>, format: ElementFormat) throws(ElementFileError) {
        // MPCORB.DAT's header ends in a row of dashes; later such rows are not records either.
        if text.allSatisfy({ $0 == UInt8(ascii: "-") }) { return }
        switch format {
        case .mpcorb:
            switch MPCLines.asteroid(text) {
            case .success(let record): add(record, designation: record.designation)
            case .failure(let e): file.report(ElementFileError(line: lineNumber, body: e.body, reason: e.reason))
            }
        case .mpcComets:
            switch MPCLines.comet(text) {
            case .success(let record): add(record, designation: record.designation)
            case .failure(let e): file.report(ElementFileError(line: lineNumber, body: e.body, reason: e.reason))
            }
        case .sbdbJSON:
            return
        }
    }

    mutating func add(_ record: MPCLines.Record, designation: [UInt8]) {
        guard claim(number: record.number, designation: designation, line: lineNumber) else { return }
        var c = record.body
        c.line = UInt32(clamping: lineNumber)
        file.setText(&c, designation: designation, name: record.name)
        file.bodies.append(c)
    }

    /// Whether a body with this number or designation is new (the first record is kept; a
    /// repeat is reported) and there is room for it.
    mutating func claim(number: Int32, designation: [UInt8], line: Int?, record: Int? = nil) -> Bool {
        guard !full else { return false }
        guard file.bodies.count < ElementFile.maxBodies else {
            full = true
            file.report(ElementFileError(line: line, record: record, reason: "more than \(ElementFile.maxBodies) bodies: the rest of the file is not read"))
            return false
        }
        let label = String(decoding: designation, as: UTF8.self)
        let here = UInt32(clamping: line ?? record ?? 0)
        if number != 0 {
            if let first = numbers[number] {
                file.report(ElementFileError(line: line, record: record, body: label, reason: "number \(number) again (first at \(line != nil ? "line" : "record") \(first)): not used"))
                return false
            }
            numbers[number] = here
            return true
        }
        if let first = designations[label] {
            file.report(ElementFileError(line: line, record: record, body: label, reason: "designation \(label) again (first at \(line != nil ? "line" : "record") \(first)): not used"))
            return false
        }
        designations[label] = here
        return true
    }

    /// A body read from a JSON record.
    mutating func add(_ body: SmallBody, record: Int) {
        guard claim(number: Int32(body.number ?? 0), designation: Array(body.designation.utf8), line: nil, record: record) else { return }
        file.append(body, line: record)
    }

    mutating func report(_ problem: ElementFileError) { file.report(problem) }
}
