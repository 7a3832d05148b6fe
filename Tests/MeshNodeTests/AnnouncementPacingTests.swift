import MeshNode
import Testing

/// Pacing driven through a script: each step asks one question at a time.
private struct Script {
    var pacing = AnnouncementPacing(
        heartbeatInterval: .seconds(10), noticeInterval: .seconds(5), refreshInterval: .seconds(600),
        answerInterval: .seconds(30))

    mutating func heartbeat(_ seconds: Int64) -> Bool { pacing.takeHeartbeat(now: .seconds(seconds)) }
    mutating func notice(_ seconds: Int64, neighbours: Bool = true) -> Bool {
        pacing.noticeDue(now: .seconds(seconds), hasNeighbours: neighbours)
    }
}

@Suite("Heartbeat and join-notice pacing")
struct AnnouncementPacingTests {
    @Test("Heartbeats: the first at once, then one per interval", arguments: [(9, false), (10, true), (25, true)])
    func heartbeats(later: Int64, due: Bool) {
        var script = Script()
        let first = script.heartbeat(0)
        let soon = script.heartbeat(1)
        let then = script.heartbeat(later)
        #expect(first && !soon && then == due)
    }

    @Test("Join notices for new neighbours coalesce to one per notice interval")
    func coalescing() {
        var script = Script()
        let unasked = script.notice(0)
        script.pacing.neighbourJoined()
        let asked = script.notice(0)
        script.pacing.noticeSent(now: .zero)
        script.pacing.neighbourJoined()
        script.pacing.neighbourJoined()
        let tooSoon = script.notice(4)
        let coalesced = script.notice(5)
        script.pacing.noticeSent(now: .seconds(5))
        let again = script.notice(20)
        #expect(!unasked && asked && !tooSoon && coalesced)
        #expect(!again, "two arrivals, one notice")
    }

    @Test("Answers are paced to one per answer interval, and any notice answers every newcomer")
    func answers() {
        var script = Script()
        script.pacing.answerNeeded()
        let first = script.notice(0)
        script.pacing.noticeSent(now: .zero)
        script.pacing.answerNeeded()
        let tooSoon = script.notice(10)
        let paced = script.notice(30)
        script.pacing.neighbourJoined()
        script.pacing.answerNeeded()
        script.pacing.noticeSent(now: .seconds(31))
        let answeredAlready = script.notice(70)
        #expect(first && !tooSoon && paced)
        #expect(!answeredAlready, "the notice answered the pending newcomer")
    }

    @Test("The answer interval counts from answer to answer: a notice in between does not restart it")
    func answerIntervalCountsBetweenAnswers() {
        var script = Script()
        script.pacing.answerNeeded()
        let answer = script.notice(0)
        script.pacing.noticeSent(now: .zero)
        script.pacing.neighbourJoined()
        let forNeighbour = script.notice(10)
        script.pacing.noticeSent(now: .seconds(10))
        script.pacing.answerNeeded()
        let early = script.notice(29)
        let nextAnswer = script.notice(30)
        #expect(answer && forNeighbour && !early)
        #expect(nextAnswer, "30 s after the last answer, not 40 s after the last notice")
    }

    @Test("The notice is refreshed while the node has neighbours, never alone")
    func refresh() {
        var script = Script()
        script.pacing.neighbourJoined()
        script.pacing.noticeSent(now: .zero)
        let alone = script.notice(600, neighbours: false)
        let withNeighbours = script.notice(600)
        #expect(!alone && withNeighbours)
    }
}
