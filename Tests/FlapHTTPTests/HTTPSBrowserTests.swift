import Foundation
import TestSupport
import Testing

/// The page as a phone on the home network reaches it: by a name that is not localhost, over
/// HTTPS, in Debian's Chromium. Without flapd's authority the certificate is refused; with it (a
/// throwaway NSS database, nothing ignored) the page is a secure context, installable, and keeps
/// the last board when flapd stops.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HTTPSBrowserTests {
    @Test func aPhoneThatTrustsTheAuthorityGetsTheAppOverHTTPS() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("https-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_https_check.py").path,
                ProcessRunner.builtProduct("flapd"), work, "https-test-key", shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["refusedWithoutAuthority"] as? Bool == true, "without the authority: \(seen["refusedTitle"] ?? "")")
        #expect(seen["plainSecureContext"] as? Bool == false, "plain HTTP by name is not a secure context")
        #expect(seen["secureContext"] as? Bool == true, "at \(seen["location"] ?? "")")
        #expect(seen["signedIn"] as? Bool == true && seen["board"] as? Bool == true)
        #expect(seen["workerInControl"] as? Bool == true)
        #expect(seen["installable"] as? Bool == true, "\(seen["installabilityErrors"] ?? "")")
        #expect(seen["cookieSecure"] as? [Bool] == [true])
        #expect(seen["offlineBoard"] as? Bool == true && seen["offlineBadge"] as? Bool == true)
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

/// Two profiles over HTTPS: the owner invites Mum from the page, Mum's browser redeems the link
/// and is held to her own sender; the owner removes her (asked first, her message cleared), her
/// open page says so at once, her requests are 401, and the owner takes it back.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MembersBrowserTests {
    @Test func theOwnerInvitesAMemberWhoIsHeldToHerOwnSender() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("members-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_members_check.py").path,
                ProcessRunner.builtProduct("flapd"), work, "members-test-key", shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["ownerSeesMembers"] as? Bool == true && seen["qrShown"] as? Bool == true && seen["linkForm"] as? Bool == true)
        #expect(seen["keyWorks"] as? [String] == ["Mum"], "the key made from the page is Mum's: \(seen["keyWorks"] ?? "")")
        #expect(seen["mumSignedIn"] as? Bool == true && seen["mumRole"] as? String == "member")
        let sender = seen["mumSender"] as? [Any] ?? []
        #expect(sender.first as? String == "mum" && sender.last as? Bool == true, "her sender, read-only: \(sender)")
        #expect(seen["ownerPartsHidden"] as? Bool == true)
        #expect(seen["mumShown"] as? Bool == true)
        #expect((seen["shownBy"] as? String)?.contains("Showing your message") == true, "\(seen["shownBy"] ?? "")")
        #expect(seen["asOwnerRefused"] as? Int == 403 && seen["clearOwnerRefused"] as? Int == 403)
        #expect(seen["clearButtons"] as? [String] == ["You"], "only her own slot offers Clear, named as hers: \(seen["clearButtons"] ?? "")")
        let receipts = seen["receipts"] as? [String] ?? []
        #expect(!receipts.isEmpty && receipts.allSatisfy { $0.contains("You:") }, "\(receipts)")
        #expect(seen["senderWidget"] as? Bool == true)
        #expect(seen["confirmAsked"] as? Bool == true && seen["beforeConfirm"] as? Int == 200, "Remove asks first")
        #expect(seen["removed"] as? Bool == true && seen["removedListed"] as? Bool == true && seen["afterRemoval"] as? Int == 401)
        #expect((seen["mumTold"] as? String)?.contains("The board's owner removed you (Mum)") == true, "\(seen["mumTold"] ?? "")")
        #expect((seen["signInSpeaksToHousehold"] as? String)?.contains("Part of the household? Open the link") == true)
        #expect(seen["undone"] as? Bool == true && seen["afterUndo"] as? Int == 200)
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

/// Two members over HTTPS see each other come, write and go; one hides, across a restart; a
/// shared text opens the composer filled in (the app's share target).
@Suite(.serialized, .timeLimit(.minutes(10))) struct PresenceBrowserTests {
    @Test func twoMembersSeeEachOtherAndAShareOpensTheComposer() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("presence-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [
                PythonPeer.peersDirectory.appendingPathComponent("browser_presence_check.py").path,
                ProcessRunner.builtProduct("flapd"), work, "presence-test-key", shots
            ])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["eachSeesTheOther"] as? [Bool] == [true, true])
        #expect((seen["ownerListed"] as? String)?.hasPrefix("Owner · ") == true, "\(seen["ownerListed"] ?? "")")
        #expect(seen["writingShown"] as? String == "Mum is writing…", "\(seen["writingShown"] ?? "")")
        #expect(seen["textNeverSent"] as? Bool == true)
        #expect(seen["writingEnded"] as? Bool == true)
        #expect(seen["goneAfterClosing"] as? Bool == true, "\(seen["goneReads"] ?? "")")
        // The page says it leaves as it closes; without that, flapd finds a dead stream within 20 s.
        #expect((seen["goneSeconds"] as? Double ?? 99) < 10, "gone after \(seen["goneSeconds"] ?? "") s")
        #expect(seen["hiddenFromMum"] as? Bool == true)
        #expect(seen["mumSeesAfterRestart"] is NSNull, "James is hidden after a restart: \(seen["mumSeesAfterRestart"] ?? "")")
        #expect(seen["jamesSettingKept"] as? Bool == true)
        let target = seen["shareTarget"] as? [String: Any]
        #expect(target?["action"] as? String == "/share" && target?["method"] as? String == "GET", "\(target ?? [:])")
        #expect(seen["sharedText"] as? String == "Dinner Pasta at 7 https://example.com/r", "\(seen["sharedText"] ?? "")")
        #expect(seen["sharedPreview"] as? Bool == true, "\(seen["sharedNote"] ?? "")")
        #expect((seen["sharedAddress"] as? String)?.hasSuffix("/") == true, "the address is the page's again: \(seen["sharedAddress"] ?? "")")
        #expect(seen["sharedSender"] as? String == "mum")
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}

/// A fresh board set up from a phone: the page asks for the code the board shows, refuses a
/// wrong one saying how many tries are left, and the right one opens the app as the owner.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SetupBrowserTests {
    @Test func aPhoneClaimsAFreshBoardWithTheCodeItShows() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("setup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let shots = PythonPeer.packageRoot.appendingPathComponent(".build/test-artifacts").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let result = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("browser_setup_check.py").path, ProcessRunner.builtProduct("flapd"), work, shots])
        #expect(result.status == 0, "\(result.stderrText.suffix(3000))")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdoutText.utf8)) as? [String: Any])
        #expect(seen["setUpShown"] as? Bool == true && seen["signInHidden"] as? Bool == true)
        #expect((seen["wrongSaid"] as? String)?.contains("4 more tries") == true, "\(seen["wrongSaid"] ?? "")")
        #expect(seen["goSecureShown"] as? Bool == true && (seen["installLink"] as? String)?.hasSuffix("/install") == true)
        #expect(seen["appShown"] as? Bool == true && seen["role"] as? String == "owner", "\(seen["location"] ?? "")")
        #expect((seen["location"] as? String)?.hasPrefix("https://flapd.test:") == true)
        #expect(seen["codeLeft"] as? Bool == false)
        #expect(seen["stepsShown"] as? Bool == true)
        #expect(seen["nextAfterDisplay"] as? [String] == ["connect"] && seen["nextAfterPattern"] as? [String] == ["source"], "\(seen)")
        #expect(seen["nextAfterSource"] as? [String] == ["hello"] && seen["memberAdded"] as? Bool == true, "\(seen)")
        #expect(seen["sent"] as? Bool == true && seen["stepsSaid"] as? String == "Your board is set up.", "\(seen)")
        print("from the page's first opening to the hello on the modules: \(seen["firstMessageSeconds"] ?? "?") s")
        #expect(seen["hardwareListed"] as? Bool == true && seen["hardwareSearched"] as? Bool == true, "\(seen["hardwareLines"] ?? "")")
        #expect((seen["vestaboardSaid"] as? String)?.contains("did not answer") == true, "\(seen["vestaboardSaid"] ?? "")")
        #expect((seen["strapsSaid"] as? String)?.isEmpty == false, "\(seen["strapsSaid"] ?? "")")
        #expect(seen["settingsSaid"] as? String == "Saved and applied.", "\(seen["settingsSaid"] ?? "")")
        let wall = (seen["hardwareLines"] as? [String])?.first { $0.contains("RS-485 modules 1, 2, 3, 4, 5, 6, 7, 8, Universal Firmware") }
        #expect(wall?.contains("2 new modules with no ID yet") == true, "\(seen["hardwareLines"] ?? "")")
        #expect(
            (seen["hardwareLines"] as? [String])?.contains { $0.contains("a Chainlink controller, 12 modules") } == true,
            "\(seen["hardwareLines"] ?? "")")
        #expect((seen["wallUsed"] as? String)?.contains("is this board's panel now") == true, "\(seen["wallUsed"] ?? "")")
        #expect(
            (seen["reelUsed"] as? String)?.hasPrefix(" ABCDEFGHIJKLMNOPQRSTUVWXYZ") == true,
            "the reel the modules said (A): \(seen["reelUsed"] ?? "")")
        #expect(seen["patternOnModules"] as? Bool == true, "the modules showed \(seen["modulesSaid"] ?? "")")
        let level = seen["levelAfter"] as? [String: Any]
        #expect(level?["value"] as? String == "debug" && level?["origin"] as? String == "page", "\(level ?? [:])")
        #expect(seen["panelAfter"] as? Int == 8, "the wall's eight modules stay the panel")
        #expect(seen["sourceAdded"] as? String == "Saved and applied." && seen["scheduleAdded"] as? String == "Saved and applied.", "\(seen)")
        #expect(seen["sourcesAfter"] as? [String] == ["bins"], "\(seen["sourcesAfter"] ?? "")")
        #expect((seen["schedulesAfter"] as? String)?.contains("morning") == true, "\(seen["schedulesAfter"] ?? "")")
        #expect(seen["reopenedSignedIn"] as? Bool == true && seen["setUpHiddenAfter"] as? Bool == true)
        #expect((seen["consoleErrors"] as? [String])?.isEmpty == true, "\(seen["consoleErrors"] ?? "")")
    }
}
