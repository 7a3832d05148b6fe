import Testing
@testable import MeshService

@Suite("The reader thread's choice after a batch: run the engine itself, hand off, or nothing")
struct InlineDrainTests {
    struct Case: Sendable, CustomStringConvertible {
        let waiting: Int
        let drainQueued: Bool
        let socketBusy: Bool
        let expected: InlineDrain
        var description: String { "waiting \(waiting), queued \(drainQueued), busy \(socketBusy)" }
    }

    @Test("An idle socket and a short backlog are drained inline; a busy socket or a deep backlog go to a worker; a queued drain or an empty inbox need nothing",
          arguments: [
              Case(waiting: 0, drainQueued: false, socketBusy: false, expected: .nothing),
              Case(waiting: 0, drainQueued: false, socketBusy: true, expected: .nothing),
              Case(waiting: 1, drainQueued: false, socketBusy: false, expected: .inline(maxEvents: InlineDrain.maxInlineEvents)),
              Case(waiting: InlineDrain.maxInlineEvents, drainQueued: false, socketBusy: false,
                   expected: .inline(maxEvents: InlineDrain.maxInlineEvents)),
              Case(waiting: InlineDrain.maxInlineEvents + 1, drainQueued: false, socketBusy: false, expected: .handOff),
              Case(waiting: 1, drainQueued: false, socketBusy: true, expected: .handOff),
              Case(waiting: 1, drainQueued: true, socketBusy: false, expected: .nothing),
              Case(waiting: 500, drainQueued: true, socketBusy: true, expected: .nothing),
          ])
    func decides(_ example: Case) {
        let decision = InlineDrain.decide(waitingEvents: example.waiting, drainQueued: example.drainQueued, socketBusy: example.socketBusy)
        #expect(decision == example.expected)
    }

    @Test("The inline bound is the one given", arguments: [1, 4, 64])
    func boundIsTheOneGiven(maxEvents: Int) {
        #expect(InlineDrain.decide(waitingEvents: maxEvents, drainQueued: false, socketBusy: false, maxEvents: maxEvents) == .inline(maxEvents: maxEvents))
        #expect(InlineDrain.decide(waitingEvents: maxEvents + 1, drainQueued: false, socketBusy: false, maxEvents: maxEvents) == .handOff)
    }
}
