import Foundation
@testable import GATTBridge
import Testing

@Suite("Fixed-point log numbers")
struct FixedPointTests {
    @Test("seconds print as String(format:) prints them", arguments: [
        0.0, 2.25, 2.35, 1.005, 12.5, -0.04, 123456.789, 1e300, .infinity,
    ])
    func fixedDigits(value: Double) {
        #expect(fixed(value, 1) == String(format: "%.1f", value))
        #expect(fixed(value, 2) == String(format: "%.2f", value))
    }
}
