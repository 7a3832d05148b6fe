import BoundedJSON
import Foundation
import Testing

/// A value with every shape the control protocol uses.
private struct Sample: Codable, Equatable {
    enum Mode: String, Codable { case fast, slow }
    var text: String
    var optional: String?
    var present: Int?
    var double: Double
    var float: Float
    var int64: Int64
    var uint64: UInt64
    var int8: Int8
    var flag: Bool
    var mode: Mode
    var list: [Double]
    var nested: [String: [String: UInt64]]
    var empty: [Int]
}

@Suite("JSON codec")
struct JSONCodecTests {
    private func foundationLine<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.5, 1e-7, 123456789.125, 1.5e15, 9007199254740992, 1e16, 1e300, .leastNonzeroMagnitude,
        12345678901234568, 1767225600.5, 3.000001, -2.5e-8, .greatestFiniteMagnitude, .leastNormalMagnitude,
    ]

    @Test("doubles are written as JSONEncoder writes them", arguments: doubles)
    func doublesMatchFoundation(value: Double) throws {
        #expect(try JSONCodec.encode([value]) == foundationLine([value]))
    }

    @Test("floats are written as JSONEncoder writes them", arguments: [Float(0.1), 1, -3.5, 1e-7, 3.4e38, 16_777_216])
    func floatsMatchFoundation(value: Float) throws {
        #expect(try JSONCodec.encode([value]) == foundationLine([value]))
    }

    @Test("strings are escaped as JSONEncoder escapes them", arguments: [
        "plain", "q\"\\/", "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{20}\u{7f}", "é😀\u{2028}\u{2029}\u{feff}",
        "http://example.org/a/b", "",
    ])
    func stringsMatchFoundation(text: String) throws {
        #expect(try JSONCodec.encode([text]) == foundationLine([text]))
    }

    private static let sample = Sample(
        text: "hi \"there\"\n", optional: nil, present: 7, double: 1767225600.25, float: 0.1, int64: .min,
        uint64: .max, int8: -8, flag: true, mode: .slow, list: [1, 2.5, -0.0],
        nested: ["b": ["z": 1, "Z": 2, "a_b": 3, "aB": 4, "a10": 5, "a9": 6], "a": [:]], empty: []
    )

    @Test("a structure with optionals, enums, dictionaries and extreme integers encodes byte for byte like JSONEncoder")
    func structureMatchesFoundation() throws {
        #expect(try JSONCodec.encode(Self.sample) == foundationLine(Self.sample))
    }

    @Test("what is encoded decodes to the same value, here and through JSONDecoder")
    func roundTrips() throws {
        let bytes = try JSONCodec.encode(Self.sample)
        #expect(try JSONCodec.decode(Sample.self, from: bytes) == Self.sample)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(bytes)) == Self.sample)
        let foundation = try foundationLine(Self.sample)
        #expect(try JSONCodec.decode(Sample.self, from: foundation) == Self.sample)
    }

    @Test("large arrays and objects encode and decode whole")
    func largeContainers() throws {
        let numbers = Array(0..<100_000)
        let table = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("k\($0)", UInt64($0)) })
        #expect(try JSONCodec.decode([Int].self, from: JSONCodec.encode(numbers)) == numbers)
        #expect(try JSONCodec.decode([String: UInt64].self, from: JSONCodec.encode(table)) == table)
        #expect(try JSONCodec.encode(table) == foundationLine(table))
    }

    @Test("non-finite numbers are not encodable", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteFails(value: Double) {
        #expect(throws: JSONError.notEncodable(path: "$[0]", reason: "\(value) is not a JSON number")) {
            try JSONCodec.encode([value])
        }
    }

    @Test("integers decode from integral fractions and exponents as with JSONDecoder", arguments: [
        ("1", 1), ("1.0", 1), ("1e2", 100), ("-0", 0), ("2.50e1", 25), ("-9223372036854775808", Int64.min),
    ])
    func integralNumbersDecode(text: String, value: Int64) throws {
        #expect(try JSONCodec.decode([Int64].self, from: Array("[\(text)]".utf8)) == [value])
        #expect(try JSONDecoder().decode([Int64].self, from: Data("[\(text)]".utf8)) == [value])
    }

    @Test("numbers that do not fit the integer type are refused", arguments: ["1.5", "9223372036854775808", "1e19", "-1e300"])
    func outOfRangeIntegersFail(text: String) {
        #expect(throws: JSONError.numberOutOfRange(path: "$[0]", text: text)) {
            try JSONCodec.decode([Int64].self, from: Array("[\(text)]".utf8))
        }
    }

    @Test("unsigned integers refuse negatives and take the full range")
    func unsignedRange() throws {
        #expect(try JSONCodec.decode([UInt64].self, from: Array("[18446744073709551615]".utf8)) == [.max])
        #expect(throws: JSONError.self) { try JSONCodec.decode([UInt64].self, from: Array("[-1]".utf8)) }
        #expect(throws: JSONError.self) { try JSONCodec.decode([UInt8].self, from: Array("[256]".utf8)) }
    }

    @Test("a double too large for Double is refused")
    func doubleOverflowFails() {
        #expect(throws: JSONError.numberOutOfRange(path: "$[0]", text: "1e400")) {
            try JSONCodec.decode([Double].self, from: Array("[1e400]".utf8))
        }
    }

    @Test("missing keys, wrong kinds and bad enum values are typed errors with their path")
    func shapeErrors() {
        #expect(throws: JSONError.missingKey(path: "$", key: "a")) {
            try JSONCodec.decode(Pair.self, from: Array("{}".utf8))
        }
        #expect(throws: JSONError.typeMismatch(path: "$.a", expected: "number", found: "string")) {
            try JSONCodec.decode(Pair.self, from: Array(#"{"a":"1"}"#.utf8))
        }
        #expect(throws: JSONError.typeMismatch(path: "$", expected: "object", found: "array")) {
            try JSONCodec.decode(Pair.self, from: Array("[]".utf8))
        }
        #expect(throws: JSONError.self) {
            try JSONCodec.decode(Sample.Mode.self, from: Array(#""medium""#.utf8))
        }
    }

    @Test("null decodes as an absent optional and an absent key as nil")
    func optionals() throws {
        #expect(try JSONCodec.decode(Maybe.self, from: Array(#"{"a":null}"#.utf8)) == Maybe(a: nil))
        #expect(try JSONCodec.decode(Maybe.self, from: Array("{}".utf8)) == Maybe(a: nil))
        #expect(try JSONCodec.encode(Maybe(a: nil)) == Array("{}".utf8))
    }
}

private struct Pair: Codable, Equatable { var a: Int }
private struct Maybe: Codable, Equatable { var a: Int? }
