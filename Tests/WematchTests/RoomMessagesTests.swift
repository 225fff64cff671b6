import Foundation
import Testing

@testable import Wematch

/// The payloads and topics other kiosks and tools read (written out by hand, as they would).
@Suite struct RoomMessagesTests {
    @Test func aJoinRecordIsTheAgreedJSON() throws {
        let record = MemberRecord(name: "cosmic_narwhal0042", colour: "#ff5fa2", joinedAt: Date(timeIntervalSince1970: 1_795_341_600))
        let text = String(decoding: RoomMessages.encode(record), as: UTF8.self)
        #expect(text == ##"{"name":"cosmic_narwhal0042","colour":"#ff5fa2","joinedAt":"2026-11-22T10:00:00Z"}"##)
        #expect(
            try RoomMessages.record(
                Array(##"{"joinedAt": "2026-11-22T10:00:00Z", "colour": "#ff5fa2", "name": "cosmic_narwhal0042", "extra": 1}"##.utf8)) == record)
    }

    @Test func aSampleIsTheAgreedJSON() throws {
        #expect(
            String(decoding: RoomMessages.encode(HeartSample(previous: 72, current: 75, seq: 17)), as: UTF8.self)
                == #"{"previous":72,"current":75,"seq":17}"#)
        #expect(
            try RoomMessages.sample(Array(#"{"previous": 72.5, "current": 75, "seq": 17}"#.utf8)) == HeartSample(previous: 72.5, current: 75, seq: 17)
        )
    }

    @Test func whatCannotBeReadSaysWhichField() {
        #expect(throws: RoomMessageError("a sample must be a JSON object")) { try RoomMessages.sample(Array("72".utf8)) }
        #expect(throws: RoomMessageError("current: a number of beats per minute is missing")) {
            try RoomMessages.sample(Array(#"{"previous":72,"current":"fast","seq":1}"#.utf8))
        }
        #expect(throws: RoomMessageError("seq: a whole sequence number is missing")) {
            try RoomMessages.sample(Array(#"{"previous":72,"current":73}"#.utf8))
        }
        #expect(throws: RoomMessageError("colour: not a colour as #rrggbb")) {
            try RoomMessages.record(Array(##"{"name":"a","colour":"pink","joinedAt":"2026-11-22T10:00:00Z"}"##.utf8))
        }
        #expect(throws: RoomMessageError("joinedAt: not a time as 2026-11-22T10:00:00Z")) {
            try RoomMessages.record(Array(##"{"name":"a","colour":"#ffffff","joinedAt":"yesterday"}"##.utf8))
        }
    }

    @Test func topicsNameTheRoomAndTheMember() {
        #expect(RoomMessages.memberTopic(room: "lobby", member: "k1.ble.C47C") == "wematch/rooms/lobby/members/k1.ble.C47C")
        #expect(RoomMessages.sampleTopic(room: "lobby", member: "k1.ble.C47C") == "wematch/rooms/lobby/hr/k1.ble.C47C")
        #expect(RoomMessages.parse("wematch/rooms/lobby/hr/k1")?.subject == .sample("k1"))
        #expect(RoomMessages.parse("wematch/rooms/lobby/members/k1")?.room == "lobby")
        #expect(RoomMessages.parse("wematch/rooms/lobby/other/k1") == nil && RoomMessages.parse("wematch/rooms/lobby/hr") == nil)
        #expect(RoomMessages.nameProblem("a/b") == "\"/\" cannot be part of a topic level")
        #expect(RoomMessages.nameProblem("") != nil && RoomMessages.nameProblem("lobby") == nil)
    }
}
