"""Issue "senses", the sound end to end: the unchanged firmware on the simulated board with a
piezo (PEGBOARD_PIEZO_PIN), its tones recorded by the fake pwmio at the lowest layer, a whole
game played by the virtual hand with an illegal placement in it: the tones follow the moves, the
mistake, the verdict and the new personal best (a fresh board's first win), in order, and the data port's `tune` events say the same."""

from pathlib import Path

import pytest
from support import hand, jump

from pegboard.link.client import BoardClient
from pegboard.sim.simulator import Simulator
from pegcore.geometry import Board
from pegcore.solver import Solver
from pegfw.sound import DUTY_PER_PCT, TUNES

ROOT = Path(__file__).resolve().parent.parent
G = Board(5)


def settings_with_piezo(tmp_path):
    text = (ROOT / "firmware" / "settings.toml").read_text(encoding="utf-8")
    path = tmp_path / "settings.toml"
    path.write_text(text + 'PEGBOARD_PIEZO_PIN = "GP17"\nPEGBOARD_VOLUME = 30\n', encoding="utf-8")
    return path


def tune_of(tones):
    """The tunes the tones make, by matching TUNES' notes in order (a rest is no tone)."""
    out = []
    k = 0
    while k < len(tones):
        for name, notes in TUNES.items():
            sounding = [f for f, _ in notes if f]
            if [t["hz"] for t in tones[k:k + len(sounding)]] == sounding:
                out.append(name)
                k += len(sounding)
                break
        else:
            raise AssertionError("tone %r is no tune's" % tones[k])
    return out


@pytest.mark.parametrize("runtime", ["cpython", "chip"])
def test_a_games_tones_follow_its_moves_an_illegal_placement_and_the_verdict(tmp_path, runtime):
    with Simulator(settings=settings_with_piezo(tmp_path), runtime=runtime) as sim, \
            BoardClient(sim.data_path) as b:
        assert b.request("info")["piezo"] is True
        sim.control("fill", empty=1)
        sim.control("wait_idle")
        first = [[4, 2, 1], [6, 5, 4], [1, 3, 6], [7, 4, 2]]
        for move in first:
            jump(sim, move)
        # 15 dropped into 1, where no jump lands (as tests/test_fw_app.py makes one), then put back
        hand(sim, ("lift", 15), ("place", 1))
        hand(sim, ("lift", 1), ("place", 15))
        rest = Solver(G).solution(sum(1 << h - 1 for h in b.request("state")["position"]))
        for j in rest:
            jump(sim, G.move_of(j))
        events = [x for x in b.poll(1.0) if x.get("event") in ("move", "illegal", "game_over", "best", "tune")]
        got = sim.control("tones")
    tones = got["tones"] + ([got["playing"]] if got["playing"] else [])
    assert {t["duty"] for t in tones} == {30 * DUTY_PER_PCT}
    heard = tune_of(tones)
    want = ["click"] * 4 + ["buzz"] + ["click"] * len(rest) + ["win", "best"]
    assert heard == want
    told = [x["name"] for x in events if x["event"] == "tune"]
    assert told == want
    # each tune follows its event on the data port
    kinds = [x["event"] if x["event"] != "tune" else x["name"] for x in events]
    assert kinds == [k for pair in zip(["move"] * 4 + ["illegal"] + ["move"] * len(rest) + ["game_over", "best"], want, strict=True)
                     for k in pair]
    for t in tones:  # each note as long as the tune says (the loop ends it a pass late at most)
        notes = dict((f, ms) for name in want for f, ms in TUNES[name] if f)
        if "ms" in t:
            assert notes[t["hz"]] <= t["ms"] <= notes[t["hz"]] + 60, t
