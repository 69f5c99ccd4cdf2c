"""Personal bests (docs/protocol.md, "The clock and personal bests"): per start and challenge, the
fewest pegs left, then the fastest; kept in the Store's flat list and as BEST entries in its log.
Loaded for a game over (`scored`: its whole record), start-up's replay and a compaction, and
dropped after: the game's heap keeps only the list (the `bests` request reads it: pegfw.board_requests)."""

from pegfw.nvm_format import BEST, MOST_CODE, SECONDS_MAX, mask_bytes, seconds_bytes

BESTS_KEPT = 40  # personal bests kept (start and challenge each): the newest set; 40 BEST entries are
# at most 400 bytes of a compaction's half of the log that the records do not use


def best_of(store, start, code):
    """(pegs left, seconds) of the personal best from `start` with challenge `code`, or None."""
    b = store.bests
    for i in range(0, len(b), 3):
        if b[i] == start and b[i + 1] == code:
            return b[i + 2] >> 22, b[i + 2] & SECONDS_MAX
    return None


def beats(store, pegs, secs, met):
    """Would a game ending now from the game in progress's start, `pegs` left after `secs`,
    be a new personal best for its start and challenge? Fewest pegs, then fastest (a reverse
    game: most pegs); a challenge game only if it met its challenge (`met`)."""
    if not store.start or (store.goal and not met):
        return False
    was = best_of(store, store.start, store.goal)
    if was is None:
        return True
    if store.goal >= MOST_CODE:
        return pegs > was[0] or (pegs == was[0] and secs < was[1])
    return pegs < was[0] or (pegs == was[0] and secs < was[1])


def note(store, start, code, pegs, secs):
    """A personal best (replayed at start-up, or set now): it replaces the old one for its
    start and challenge, and the oldest set goes when BESTS_KEPT are kept."""
    b = store.bests
    for i in range(0, len(b), 3):
        if b[i] == start and b[i + 1] == code:
            del b[i:i + 3]
            break
    if len(b) >= 3 * BESTS_KEPT:
        del b[0:3]
    b.append(start)
    b.append(code)
    b.append(pegs << 22 | min(secs, SECONDS_MAX))


def entry(store, start, code, value):
    """The BEST entry of a best (`value`: pegs << 22 | seconds, as the list keeps it)."""
    out = bytearray((BEST,))
    m = start
    for _ in range(mask_bytes(store.holes)):
        out.append(m & 127)
        m >>= 7
    out.append(code)
    out.append(value >> 22)
    out.extend(seconds_bytes(value & SECONDS_MAX))
    return bytes(out)


def take(store, pegs, secs):
    """A new best for the game in progress, noted now: its BEST entry, for Store.game_over."""
    note(store, store.start, store.goal, pegs, secs)
    return entry(store, store.start, store.goal, store.bests[-1])


def scored(self, pegs, verdict, met, secs):
    """The game over's record (pegfw.game_events.scored: `self` the App): a win from a puzzle's
    position kept as solved (`puzzle_solved`), a new personal best for its start and challenge
    (`best`: named, kept, and celebrated in gold after the verdict's show), the score in NVM, the
    game-over show."""
    from pegcore.rules import popcount
    from pegfw import ondemand

    st, t, b = self.store, self.tracker, self.board
    best = b""
    if st.start and not st.scored:
        if pegs == 1 and t.goal < 0x40 and (not t.goal or met) and 0 < popcount(st.start) < b.holes - 1:
            n = ondemand.load("pegfw.puzzles").solved(self, st.start, t.goal)  # won from a position a hand set
            ondemand.unload("pegfw.puzzles")
            ondemand.unload("pegcore.puzzlefile")
            if n:
                self.link.event("puzzle_solved", {"n": n})
        if beats(st, pegs, secs, met):
            was = best_of(st, st.start, st.goal)
            self.link.event("best", {"pegs": pegs, "seconds": secs,
                                     "before": {"pegs": was[0], "seconds": was[1]} if was else None})
            self.chime("best")  # after the game's tune
            best = take(st, pegs, secs)
    st.game_over(pegs, best)
    if self.shows.kind not in ("demo", "watch"):
        self.shows.load("over", "pegfw.show_over", "GameOverShow", (b.holes, self.hw.ticks_ms(), verdict, bool(best)))
