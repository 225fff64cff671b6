import FoundationEssentials

/// Sessions: the owner's and members' signed-in browsers, each found by its token's digest.
extension AccessStore {
    /// A new session for `principal`; its token (the cookie) and when it ends unless used.
    public func openSession(for principal: Principal) -> (token: String, expires: Date) {
        let token = AccessToken.random()
        let at = now()
        file.sessions.removeAll { at.timeIntervalSince($0.at) > Self.sessionLifetime }
        file.sessions.append(.init(digest: AccessToken.digest(token), member: principal.memberID, at: at))
        if file.sessions.count > Self.mostSessions {
            file.sessions.sort { $0.at > $1.at }
            file.sessions.removeLast(file.sessions.count - Self.mostSessions)
        }
        changed()
        return (token, at.addingTimeInterval(Self.sessionLifetime))
    }

    /// Who the session `token` is, and when it now ends; using it moves its end on. nil for an
    /// unknown, expired or revoked one, or a token of another form (not even looked up).
    public func session(_ token: String) -> (principal: Principal, expires: Date)? {
        guard AccessToken.wellFormed(token), let index = found.sessions[AccessToken.digest(token)] else { return nil }
        let entry = file.sessions[index], at = now()
        guard at.timeIntervalSince(entry.at) <= Self.sessionLifetime, let principal = principal(entry.member) else {
            file.sessions.remove(at: index)
            changed()
            return nil
        }
        file.sessions[index].at = at
        // Last uses are written at most once a day: a page's every request is not a disk write.
        if at.timeIntervalSince(savedAt) > 86_400 { changed() }
        return (principal, at.addingTimeInterval(Self.sessionLifetime))
    }

    /// Ends the session of `token` (signing out); an unknown token is nothing to end.
    public func closeSession(_ token: String) {
        guard AccessToken.wellFormed(token), let index = found.sessions[AccessToken.digest(token)] else { return }
        file.sessions.remove(at: index)
        changed()
    }

    /// Whether the owner has a session still open (a phone signed in with the key, a pairing
    /// link or the board's setup code).
    public func ownerHasSession() -> Bool {
        let at = now()
        return file.sessions.contains { $0.member == nil && at.timeIntervalSince($0.at) <= Self.sessionLifetime }
    }

    /// Ends every owner's session but `kept` (a board handed over: the earlier owner's phones
    /// are signed out); how many ended.
    @discardableResult
    public func closeOwnerSessions(except kept: String?) -> Int {
        let keptDigest = kept.map(AccessToken.digest)
        let before = file.sessions.count
        file.sessions.removeAll { $0.member == nil && $0.digest != keptDigest }
        if file.sessions.count != before { changed() }
        return before - file.sessions.count
    }
}
