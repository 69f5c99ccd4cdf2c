"""Random games through the firmware's main loop (fake hardware, flash-like NVM) with stray
hovers, mid-jump included, and resets at random points, some with the hand going on while the
firmware is down. Shared by the quick test (test_fw_resume.py) and `make soak` (test_soak.py)."""

import random

from fakehw import FlashNvm, HW, make_app, run
from support import ask, output
from test_fw_resume import game

from pegcore.geometry import Board
from pegcore.rules import holes_of

B = Board(5)


def soak(games, seed, offline=(0,)):
    """Plays `games` games on one board; returns counts. Raises AssertionError on a lost game, a
    false or missed move, a spurious new game or illegal flag, or a game scored twice."""
    rnd = random.Random(seed)
    nvm = FlashNvm()
    hw = HW(nvm=nvm)
    hw, app = make_app(hw)
    run(app, hw, 200)
    out = {"games": 0, "resets": 0, "offline_pictures": 0, "moves": 0, "other_line": 0, "wins": 0}
    for g in range(games):
        empty = rnd.randrange(1, 16)
        pics, made, final = game(rnd.randrange(1 << 30), empty)
        cuts = sorted(rnd.sample(range(1, len(pics)), rnd.choice((0, 1, 1, 2, 3))))
        offline_any = False
        k = 0
        seen = []
        for cut in cuts + [len(pics)]:
            if cut <= k:
                continue
            for p in pics[k:cut]:
                hw.sensors.set(p)
                run(app, hw, 15)
                seen += output(hw)
            k = cut
            if cut == len(pics):
                break
            # reset; the hand may go on meanwhile (a hang or a cut while the board is played)
            d = rnd.choice(offline)
            offline_any |= d > 0
            out["offline_pictures"] += d
            k = min(k + d, len(pics) - 1)
            hw = HW(nvm=nvm)
            hw.sensors.state = pics[k]
            hw, app = make_app(hw)
            run(app, hw, 150)
            out["resets"] += 1
            k += 1
            seen += output(hw)
        run(app, hw, 50)
        while app.chase is not None and not app.chase.done:
            run(app, hw, 100)
        seen += output(hw)
        bad = [e for e in seen if e.get("event") in ("illegal", "error")]
        news = [e for e in seen if e.get("event") == "new_game"]
        assert not bad and len(news) == 1 and news[0]["empty"] == empty, (g, seed, bad, news)
        # the game as a host hears it: resumed, moves, undos
        heard = []
        for e in seen:
            if e.get("event") == "resumed":
                heard = list(e["moves"])
            elif e.get("event") == "move":
                heard.append(e["move"])
            elif e.get("event") == "undo":
                heard.pop()
        over = [e for e in seen if e.get("event") == "game_over"]
        assert len(over) == 1 and over[0]["pegs_left"] == 14 - len(made), (g, seed, over)
        st = ask(app, hw, "state")
        if st["mode"] == "setup":  # a reset after the end: a finished game is not taken back
            assert st["pegs"] == holes_of(final), (g, seed)
        else:
            assert st["empty_start"] == empty and st["position"] == holes_of(final), (g, seed)
            assert st["moves"] == heard and st["mode"] == "over", (g, seed)
        exact = heard == [B.move_of(j) for j in made]
        assert len(heard) == len(made) and (exact or offline_any), (g, seed, heard)
        out["other_line"] += not exact
        out["moves"] += len(made)
        out["wins"] += len(made) == 13
        out["games"] += 1
        stats = ask(app, hw, "stats")
        assert stats["games"] == out["games"] and stats["wins"] == out["wins"], (g, seed, stats, out)
    return out
