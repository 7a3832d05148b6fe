import GATTBridge
import Testing

@Suite struct WritePacerTests {
    @Test(arguments: [1, 2, 4, 8])
    func commandsAreClosedByARequestEveryWindow(window: Int) {
        var pacer = WritePacer(configured: .command, window: window)
        var types: [GATTWriteType] = []
        for _ in 0..<(window * 3) {
            let type = pacer.next
            types.append(type)
            pacer.written(type)
        }
        let oneWindow = Array(repeating: GATTWriteType.command, count: window - 1) + [.request]
        #expect(types == oneWindow + oneWindow + oneWindow)
    }

    @Test func requestsStayRequests() {
        var pacer = WritePacer(configured: .request, window: 4)
        for _ in 0..<10 {
            #expect(pacer.next == .request)
            pacer.written(pacer.next)
        }
        #expect(pacer.unconfirmed == 0)
    }

    @Test func aFailedRequestKeepsTheNextWriteARequest() {
        var pacer = WritePacer(configured: .command, window: 3)
        pacer.written(.command)
        pacer.written(.command)
        #expect(pacer.next == .request)
        // The request failed (not recorded as written): the frames before it are still unconfirmed.
        #expect(pacer.next == .request)
        #expect(pacer.unconfirmed == 2)
    }

    @Test func aWindowBelowOneIsOne() {
        #expect(WritePacer(configured: .command, window: 0).window == 1)
        #expect(WritePacer(configured: .command, window: 0).next == .request)
    }

    @Test(arguments: [0, 65])
    func theConfigurationRefusesAWindowOutOfRange(window: Int) {
        var configuration = BlueZConfiguration(localName: "abcd1234")
        configuration.writeWindow = window
        #expect(throws: BlueZConfigurationError.badLimit(field: "writeWindow", value: window)) {
            try configuration.validated()
        }
    }
}
