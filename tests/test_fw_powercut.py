"""Power cuts at every step of every hand order of a jump (issue "honest", item 8): the jumper
lifted, the jumped peg lifted and the landing hole filled, in each of the 6 orders, the power cut
before or after each step, the hand going on while the firmware is down or once it is back. The
game after the resume (its moves as the host hears them and as NVM logs them, its position) is
checked against a model of the rules of its own: a jump is made when its end picture is reached.
And `state` says the board is starting until it has read its pegs. The main loop on fake hardware
with flash-like NVM (fakehw.FlashNvm)."""

import json
from itertools import permutations

from fakehw import HW, FlashNvm, boot, make_app, run
from hypothesis import example, given, settings, strategies as st
from support import ask, output, stored

from pegcore.geometry import Board, start_mask
from pegcore.solver import Solver
from pegfw.app import EMPTY_SETTLE_MS, SETTLE_MS

B = Board(5)
ORDERS = list(permutations([0, 1, 2]))  # of (lift the jumper, lift the jumped peg, fill the landing)
SLOW = EMPTY_SETTLE_MS + 100  # a picture held longer than an empty board takes to end a game
WINS = {}  # empty hole -> the solver's winning line (its last jump: two pegs, one jump)


# -- the model: the rules, from the board's geometry alone ------------------------------------------

def jumps_of(mask):
    """The legal jumps of `mask`: a peg jumps over a peg into an empty hole."""
    return [j for j in range(len(B.jump_from))
            if mask >> B.jump_from[j] & 1 and mask >> B.jump_over[j] & 1 and not mask >> B.jump_to[j] & 1]


def after(mask, j):
    return mask & ~(1 << B.jump_from[j]) & ~(1 << B.jump_over[j]) | 1 << B.jump_to[j]


def model_game(empty, picks):
    """A game from the start `empty` making the jumps `picks` picks (a winning line when picks is
    None): (its jumps, the position before each jump and after the last)."""
    pos = start_mask(B, empty)
    if picks is None:
        if empty not in WINS:
            WINS[empty] = Solver(B).solution(pos)
        picks = WINS[empty]
        line = list(picks)
    else:
        line = []
        for p in picks:
            legal = jumps_of(pos)
            if not legal:
                break
            line.append(legal[p % len(legal)])
            pos = after(pos, line[-1])
        pos = start_mask(B, empty)
    positions = [pos]
    for j in line:
        assert j in jumps_of(positions[-1])
        positions.append(after(positions[-1], j))
    return line, positions


def hand(mask, j, order):
    """The three pictures of a hand making jump j from `mask` in `order`."""
    holes = (B.jump_from[j], B.jump_over[j], B.jump_to[j])
    pics = []
    for k in order:
        mask ^= 1 << holes[k]
        pics.append(mask)
    return pics


# -- the board ------------------------------------------------------------------------------------


def show(hw, app, pics, hold=20):
    for p in pics:
        hw.sensors.set(p)
        run(app, hw, hold)


def heard(seen):
    """The game's moves as a host hears them: `resumed`, then each move and undo."""
    moves = []
    for e in seen:
        if e.get("event") == "resumed":
            moves = list(e["moves"])
        elif e.get("event") == "move":
            moves.append(e["move"])
        elif e.get("event") == "undo":
            moves.pop()
    return moves


def cut_in_jump(line, positions, k, order, cut, offline, hold):
    """Play the game up to its jump k, make that jump in `order`: `cut` steps, the power cut,
    `offline` more steps while the firmware is down, the rest once it is back (each picture held
    `hold` ms). Returns (hw, app, nvm, the events since the power came back)."""
    nvm = FlashNvm()
    hw, app = boot(nvm, 0)
    show(hw, app, positions[:k + 1])  # the start, then each earlier move's end picture
    steps = hand(positions[k], line[k], order)
    show(hw, app, steps[:cut], hold)
    back = cut + offline
    hw, app = boot(nvm, steps[back - 1] if back else positions[k])
    show(hw, app, steps[back:], hold)
    run(app, hw, 100)
    while app.chase is not None and not app.chase.done:  # the pegs at rest: a catch-up search ends
        run(app, hw, 100)
    return hw, app, nvm, output(hw)


def check_game(hw, app, nvm, seen, empty, line, positions, k):
    """The game is the model's: jumps 0..k made, every one heard, logged, none flagged."""
    want = [B.move_of(j) for j in line[:k + 1]]
    pos = positions[k + 1]
    assert heard(seen) == want, seen
    assert not [e for e in seen if e.get("event") in ("illegal", "new_game", "setup")], seen
    st_ = ask(app, hw, "state")
    assert st_["moves"] == want and st_["empty_start"] == empty
    assert st_["position"] == [h + 1 for h in range(B.holes) if pos >> h & 1]
    assert st_["mode"] == ("play" if jumps_of(pos) else "over")
    assert stored(nvm).moves == line[:k + 1]  # logged: a later cut keeps it too
    assert ask(app, hw, "stats")["games"] == 1


games = st.tuples(st.integers(1, 15), st.one_of(st.none(), st.lists(st.integers(0, 1000), min_size=13,
                                                                          max_size=13)))
# which jump the cut falls in: the last one (two pegs with a jump between them: the board empty
# with both in the hand), or any
which = st.one_of(st.just(-1), st.integers(0, 12))


@settings(max_examples=8, deadline=None)  # 60 cuts an example: ~2 s each
@given(games, which, st.sampled_from([20, SLOW]))
@example((1, None), -1, 20)  # the last jump of a win (hole 1: both pegs in the hand at the cut)
def test_a_cut_at_every_step_of_every_hand_order_loses_nothing(game, k, hold):
    """Every order, every cut (before the first step .. after the last), every split of the steps
    left between the firmware down and back up: the game after it is the model's."""
    empty, picks = game
    line, positions = model_game(empty, picks)
    k = len(line) - 1 if k < 0 else k % len(line)
    for order in ORDERS:
        for cut in range(4):
            for offline in range(4 - cut):
                hw, app, nvm, seen = cut_in_jump(line, positions, k, order, cut, offline, hold)
                try:
                    check_game(hw, app, nvm, seen, empty, line, positions, k)
                except AssertionError as e:
                    raise AssertionError("order %s, cut after %d steps, %d made while down: %s"
                                         % (order, cut, offline, e)) from e


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 15), st.sampled_from([(0, 1, 2), (1, 0, 2)]), st.sampled_from([20, SLOW]))
@example(1, (0, 1, 2), SLOW)
def test_the_last_jump_in_the_hand_survives_a_power_cut(empty, order, hold):
    """Hole 1: both pegs of the last jump in the hand when the power goes; the board comes back
    empty. As in live play that is the jump in progress (held as long as the player likes), not a
    board emptied: the landing filled is the move and the win, logged and scored once."""
    line, positions = model_game(empty, None)
    k = len(line) - 1
    hw, app, nvm, seen = cut_in_jump(line, positions, k, order, 2, 0, hold)
    check_game(hw, app, nvm, seen, empty, line, positions, k)
    assert [e["event"] for e in seen if e.get("event") in ("move", "game_over")] == ["move", "game_over"]
    assert ask(app, hw, "stats")["wins"] == 1


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 15), st.sampled_from([(0, 1, 2), (1, 0, 2)]))
def test_after_a_cut_with_the_last_jump_in_the_hand_another_peg_ends_the_game(empty, order):
    """As in live play: a placement after the empty board that the jump cannot explain ends the
    game (abandoned, `setup` emptied); an empty board with more than two pegs saved is no jump."""
    line, positions = model_game(empty, None)
    k = len(line) - 1
    nvm = FlashNvm()
    hw, app = boot(nvm, 0)
    show(hw, app, positions[:k + 1])
    show(hw, app, hand(positions[k], line[k], order)[:2])
    hw, app = boot(nvm, 0)
    j = line[k]
    other = next(h for h in range(B.holes) if h not in (B.jump_from[j], B.jump_over[j], B.jump_to[j]))
    show(hw, app, [1 << other], SLOW)
    seen = output(hw)
    assert [e["reason"] for e in seen if e.get("event") == "setup"] == ["emptied"], seen
    assert ask(app, hw, "state")["mode"] == "setup" and ask(app, hw, "stats")["abandoned"] == 1
    # three pegs saved, the board empty at power-on: the game is dropped, no `resumed`
    nvm = FlashNvm()
    hw, app = boot(nvm, 0)
    show(hw, app, positions[:k])
    hw, app = boot(nvm, 0)
    seen = output(hw)
    assert [e["event"] for e in seen] == ["setup"] and ask(app, hw, "state")["mode"] == "setup"


@settings(max_examples=40, deadline=None)
@given(games, which, st.sampled_from(ORDERS), st.integers(1, 2), st.integers(0, 1), st.sampled_from([20, SLOW]))
@example((1, None), -1, (0, 1, 2), 1, 1, 20)  # the jumped peg lifted while down: the board reads empty
@example((1, None), -1, (1, 0, 2), 1, 1, SLOW)
def test_a_jump_begun_before_a_cut_and_finished_after_it_is_a_move(game, k, order, cut, offline, hold):
    """Hole 2: a jump begun before the power cut (1 or 2 steps made) and finished after it (at
    least its last step seen by the firmware once it is back) is reported as a `move` after the
    resume, and logged."""
    empty, picks = game
    line, positions = model_game(empty, picks)
    k = len(line) - 1 if k < 0 else k % len(line)
    offline = min(offline, 2 - cut)
    hw, app, nvm, seen = cut_in_jump(line, positions, k, order, cut, offline, hold)
    assert [e["move"] for e in seen if e.get("event") == "move"] == [B.move_of(line[k])], seen
    check_game(hw, app, nvm, seen, empty, line, positions, k)


def request(app, hw, cmd, events):
    """One request's reply (within 10 ms); the events meanwhile go to `events`."""
    hw.serial.rx += (json.dumps({"id": 7, "cmd": cmd}) + "\n").encode()
    run(app, hw, 10)
    out = output(hw)
    events += [e for e in out if "event" in e]
    replies = [r for r in out if "event" not in r]
    assert len(replies) == 1, replies
    return replies[0]


def test_state_says_starting_until_the_pegs_are_read():
    """Hole 3: for SETTLE_MS after power-on (longer while pegs move) the board has not read its
    pegs. `state` says so (mode starting), not free play on an empty board, which a host would
    take for the game dropped; a request about the pegs answers busy and a button press waits for
    the read; then the logged game is back."""
    line, positions = model_game(1, None)
    nvm = FlashNvm()
    hw, app = boot(nvm, 0)
    show(hw, app, positions[:4])  # three moves logged
    hw = HW(nvm=nvm)
    hw.sensors.state = positions[3]
    hw, app = make_app(hw)
    seen = []
    st_ = request(app, hw, "state", seen)
    assert st_["mode"] == "starting" and st_["moves"] == [], st_
    stray = 1 << B.jump_from[line[3]]  # a peg lifted and put back now and then: the read waits for rest
    hw.button.set(1)
    for k in range(4):
        hw.sensors.set(positions[3] ^ (stray if k % 2 == 0 else 0))
        run(app, hw, SETTLE_MS // 2)
        assert request(app, hw, "state", seen)["mode"] == "starting"
    hw.button.set(0)
    hw.sensors.set(positions[3] ^ stray)
    for cmd in ("hint", "play", "demo"):  # (10 ms each: the pegs not at rest for SETTLE_MS yet)
        r = request(app, hw, cmd, seen)
        assert not r["ok"] and r["error"] == "busy", (cmd, r)
    assert not [e for e in seen if e["event"] in ("hint", "setup", "new_game", "resumed")], seen
    hw.sensors.set(positions[3])
    run(app, hw, SETTLE_MS + 20)
    st_ = request(app, hw, "state", seen)
    assert st_["mode"] == "play" and st_["moves"] == [B.move_of(j) for j in line[:3]], st_
    assert [e["moves"] for e in seen if e["event"] == "resumed"] == [st_["moves"]]
    hints = [e for e in seen if e["event"] == "hint"]  # the press, taken once the pegs are read
    assert len(hints) == 1 and B.find_jump(*hints[0]["move"]) in jumps_of(positions[3]), hints
