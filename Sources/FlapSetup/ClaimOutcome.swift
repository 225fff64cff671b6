/// What became of a try at claiming the board with a code.
public enum ClaimOutcome: Sendable, Equatable {
    /// The code was right: the one who typed it is now the board's owner.
    case claimed
    /// The code was wrong; `triesLeft` more before the board shows a new one (0: it shows a new
    /// one now).
    case wrong(triesLeft: Int)
    /// Not eight digits: nothing was tried, and no try is counted.
    case malformed
    /// This client tried too many wrong codes lately; it may try again in `wait` seconds.
    case tooManyTries(wait: Int)
    /// The board has an owner and shows no code: nothing to claim.
    case alreadyClaimed
}
