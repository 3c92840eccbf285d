/// A NAIF DAF (Double precision Array File) read in place: the file record, the chain of
/// summary records and the name records beside them ("DAF Required Reading", NAIF). Every
/// number taken from the file is checked before it is used, so a damaged file is an
/// ``SPKError`` and never a trap or a read outside the bytes.
///
/// Layout: 1024-byte records; record 1 is the file record; each summary record holds three
/// doubles (next, previous, count) and then `count` summaries of ND doubles and NI 32-bit
/// integers, padded to whole doubles; the record after it holds their names. Addresses are
/// 1-based indices of 8-byte words.
struct DAFFile {
    static let recordBytes = 1024
    /// The validation string NAIF writes at byte 699 (`FTPSTR:` CR `:` LF `:` CRLF `:` CR NUL
    /// `:` 0x81 `:` 0x10 0xCE `:ENDFTP`): a text-mode transfer alters it.
    static let ftpValidation: [UInt8] = Array("FTPSTR:\r:\n:\r\n:\r\u{0}:".utf8) + [0x81] + Array(":".utf8) + [0x10, 0xCE] + Array(":ENDFTP".utf8)
    static let ftpOffset = 699

    struct Summary {
        let doubles: [Double]
        let integers: [Int32]
        let name: String
    }

    let reader: ByteReader
    let file: String
    /// The DAF type from the identification word, e.g. `SPK`.
    let type: String
    let nd: Int
    let ni: Int
    let internalName: String
    let summaries: [Summary]
    /// Words (8 bytes each) the file's data may occupy: addresses 1…`wordCount`.
    let wordCount: Int

    init(bytes: UnsafeRawBufferPointer, file: String) throws(SPKError) {
        self.file = file
        let count = bytes.count
        guard count >= Self.recordBytes, let base = bytes.baseAddress else {
            throw SPKError(.truncated, file: file, "\(count) bytes: shorter than a DAF file record (1024 bytes)")
        }
        let id = Self.ascii(bytes, 0, 8)
        if id == "NAIF/DAF" {
            type = "SPK" // pre-1998 files name no type; ND/NI below decide
        } else if id.hasPrefix("DAF/") {
            type = String(id.dropFirst(4)).trimmingSpaces
        } else {
            throw SPKError(.notDAF, file: file, "not a NAIF DAF file (identification word \"\(Self.printable(id))\", expected \"DAF/SPK\")")
        }
        guard type == "SPK" else {
            throw SPKError(.unsupported, file: file, "a DAF/\(Self.printable(type)) file, not an SPK ephemeris (DAF/SPK)")
        }

        let format = Self.ascii(bytes, 88, 8)
        let bigEndian: Bool
        switch format {
        case "LTL-IEEE": bigEndian = false
        case "BIG-IEEE": bigEndian = true
        case _ where format.hasPrefix("VAX"):
            throw SPKError(.unsupported, file: file, "\(format) numbers; only IEEE files (LTL-IEEE, BIG-IEEE) are read")
        case _ where format.utf8.allSatisfy({ $0 == 0 || $0 == 0x20 }):
            // Files older than the format word: the byte order that makes ND/NI sensible.
            let little = ByteReader(base: base, count: count, bigEndian: false)
            bigEndian = !(1...124).contains(little.int32(at: 8))
        default:
            throw SPKError(.corrupt, file: file, "unknown number format \"\(Self.printable(format))\" in the file record (LTL-IEEE or BIG-IEEE expected)")
        }
        let reader = ByteReader(base: base, count: count, bigEndian: bigEndian)
        self.reader = reader
        let nd = Int(reader.int32(at: 8)), ni = Int(reader.int32(at: 12))
        self.nd = nd
        self.ni = ni
        guard nd == 2, ni == 6 else {
            throw SPKError(.corrupt, file: file, "ND=\(nd), NI=\(ni) in the file record; an SPK file has ND=2, NI=6")
        }
        internalName = Self.printable(Self.ascii(bytes, 16, 60).trimmingSpaces)

        let ftp = UnsafeRawBufferPointer(rebasing: bytes[Self.ftpOffset..<(Self.ftpOffset + Self.ftpValidation.count)])
        if ftp.contains(where: { $0 != 0 }), !ftp.elementsEqual(Self.ftpValidation) {
            throw SPKError(.corrupt, file: file, "the FTP validation string is damaged: the file was altered, e.g. by a text-mode transfer")
        }

        let forward = Int(reader.int32(at: 76))
        let free = Int(reader.int32(at: 84))
        let records = (count + Self.recordBytes - 1) / Self.recordBytes
        guard free >= 1 else { throw SPKError(.corrupt, file: file, "first free address \(free) in the file record is not positive") }
        // Data ends before the first free address; a shorter file lost its end.
        let neededBytes = (free - 1) * 8
        guard neededBytes <= count else {
            throw SPKError(.truncated, file: file, "\(count) bytes, but the file record says its data runs to byte \(neededBytes): the file is cut short")
        }
        wordCount = free - 1
        guard forward >= 2, forward <= records else {
            throw SPKError(.corrupt, file: file, "first summary record \(forward) is outside the file's \(records) records")
        }

        // Summary records: a chain from `forward`, each followed by its name record.
        let summaryWords = nd + (ni + 1) / 2
        let perRecord = (Self.recordBytes / 8 - 3) / summaryWords
        var list: [Summary] = []
        var record = forward
        var visited = 0
        while record != 0 {
            visited += 1
            guard visited <= records else { throw SPKError(.corrupt, file: file, "the summary records form a loop") }
            guard record >= 2, record + 1 <= records, record * Self.recordBytes + Self.recordBytes <= count else {
                throw SPKError(record + 1 > records ? .truncated : .corrupt, file: file, "summary record \(record) (and its name record) lies outside the file's \(records) records")
            }
            let offset = (record - 1) * Self.recordBytes
            let next = reader.double(at: offset), n = reader.double(at: offset + 16)
            guard let nextRecord = Self.wholeNumber(next, in: 0...records), nextRecord != record else {
                throw SPKError(.corrupt, file: file, "summary record \(record): next record \(next) is not a record of the file")
            }
            guard let summaryCount = Self.wholeNumber(n, in: 0...perRecord) else {
                throw SPKError(.corrupt, file: file, "summary record \(record): \(n) summaries, at most \(perRecord) fit")
            }
            let names = offset + Self.recordBytes
            for i in 0..<summaryCount {
                let at = offset + 24 + i * summaryWords * 8
                let doubles = (0..<nd).map { reader.double(at: at + 8 * $0) }
                let integers = (0..<ni).map { reader.int32(at: at + 8 * nd + 4 * $0) }
                let nameBytes = summaryWords * 8
                let name = Self.printable(Self.ascii(bytes, names + i * nameBytes, nameBytes).trimmingSpaces)
                list.append(Summary(doubles: doubles, integers: integers, name: name))
            }
            record = nextRecord
        }
        summaries = list
    }

    /// `v` as an integer in `range` when it is one exactly (record numbers and counts are
    /// stored as doubles).
    static func wholeNumber(_ v: Double, in range: ClosedRange<Int>) -> Int? {
        guard v.isFinite, v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else { return nil }
        return Int(v)
    }

    static func ascii(_ bytes: UnsafeRawBufferPointer, _ offset: Int, _ length: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
    }

    /// Printable ASCII only, so names from a damaged file cannot upset a log line.
    static func printable(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? $0 : "?" }))
    }
}

/// Unaligned reads of IEEE doubles and 32-bit integers in the file's byte order. Callers check
/// offsets against `count` first; `double(word:)` takes a 1-based DAF word address.
struct ByteReader: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    let bigEndian: Bool

    @inline(__always) func double(at offset: Int) -> Double {
        let bits = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return Double(bitPattern: bigEndian ? bits.byteSwapped : bits)
    }

    @inline(__always) func int32(at offset: Int) -> Int32 {
        let bits = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return Int32(bitPattern: bigEndian ? bits.byteSwapped : bits)
    }

    @inline(__always) func double(word address: Int) -> Double { double(at: (address - 1) * 8) }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.last, c == " " || c == "\0" { s = s.dropLast() }
        while let c = s.first, c == " " || c == "\0" { s = s.dropFirst() }
        return String(s)
    }
}
