"""The firmware's main loop with plain fake hardware: games through the sensors, the button, the
protocol's commands and errors, flow control, NVM and resume."""

import json

import pytest
from fakehw import FlashNvm, HW, make_app, run
from support import ask

from pegcore.geometry import Board, start_mask
from pegcore.rules import holes_of, legal_jumps
from pegcore.solver import Solver
from pegfw.lights import estimate_ma

B = Board(5)


def send(app, hw, line):
    hw.serial.rx += line if isinstance(line, bytes) else line.encode() + b"\n"
    run(app, hw, 10)
    return [json.loads(x) for x in hw.serial.lines()]


def new_game(app, hw, empty=1):
    hw.sensors.set(start_mask(B, empty))
    run(app, hw, 200)
    hw.serial.lines()


def play_jump(hw, app, mask, move, order="lift-place-remove"):
    f, o, t = (1 << (h - 1) for h in move)
    steps = {"lift-place-remove": [~f, t, ~o], "remove-lift-place": [~o, ~f, t],
             "place-first": [~f, t, ~o], "remove-first": [~o, ~f, t]}[order]
    for s in steps:
        mask = mask & s if s < 0 else mask | s
        hw.sensors.set(mask)
        run(app, hw, 40)
    return mask


def test_power_on_reads_the_board_and_starts_a_game():
    hw = HW()
    hw.sensors.state = start_mask(B, 5)  # pegs already in place at power-on
    hw, app = make_app(hw)
    run(app, hw, 200)
    events = [json.loads(x) for x in hw.serial.lines()]
    assert {"event": "new_game", "seq": events[-1]["seq"], "empty": 5,
            "start": holes_of(start_mask(B, 5))} in events
    st = ask(app, hw, "state")
    assert st["mode"] == "play" and st["empty_start"] == 5 and len(st["pegs"]) == 14


def test_a_whole_game_through_the_sensors_with_the_solvers_moves():
    hw, app = make_app()
    new_game(app, hw, 1)
    mask = start_mask(B, 1)
    sol = Solver(B).solution(mask)
    seen = []
    for k, j in enumerate(sol):
        mask = play_jump(hw, app, mask, B.move_of(j), ["lift-place-remove", "remove-lift-place"][k % 2])
        seen += [json.loads(x) for x in hw.serial.lines()]
    moves = [e["move"] for e in seen if e.get("event") == "move"]
    assert moves == [B.move_of(j) for j in sol]
    over = [e for e in seen if e.get("event") == "game_over"]
    # the game's time on the board's clock, and the first game from this start is a personal best
    assert over == [{"event": "game_over", "seq": over[0]["seq"], "pegs_left": 1, "verdict": "genius",
                     "seconds": over[0]["seconds"]}]
    assert [e["before"] for e in seen if e.get("event") == "best"] == [None]
    assert 0 <= over[0]["seconds"] <= hw.ticks_ms() // 1000
    assert not [e for e in seen if e.get("event") == "illegal"]
    assert ask(app, hw, "state")["mode"] == "over"
    assert ask(app, hw, "stats")["wins"] == 1


def test_wrong_placement_is_flagged_until_undone_and_putback_is_undo():
    hw, app = make_app()
    new_game(app, hw, 1)
    mask = start_mask(B, 1)
    for mv in ([4, 2, 1], [6, 5, 4], [1, 3, 6], [7, 4, 2]):
        mask = play_jump(hw, app, mask, mv)
    hw.serial.lines()
    # lift 15 and drop it into 1: no legal jump lands there and no undo refills it
    bad = (mask & ~(1 << 14)) | 1
    hw.sensors.set(bad)
    run(app, hw, 50)
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert any(e.get("event") == "illegal" and e["holes"] == [1] for e in ev)
    st = ask(app, hw, "state")
    assert st["mode"] == "illegal" and st["illegal"] == [1]
    assert tuple(st["lights"][0]) == tuple(c * 40 // 100 for c in (255, 0, 0))
    hw.sensors.set(mask)
    run(app, hw, 50)
    assert any(e.get("event") == "recovered" for e in (json.loads(x) for x in hw.serial.lines()))
    # the last move's pegs put back (jumper from 2 to 7, then the jumped peg into 4): undo
    hw.serial.lines()
    hw.sensors.set(mask & ~2)
    run(app, hw, 40)
    hw.sensors.set((mask & ~2) | 1 << 6)
    run(app, hw, 40)
    hw.sensors.set((mask & ~2) | 1 << 6 | 1 << 3)
    run(app, hw, 40)
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert [e["move"] for e in ev if e.get("event") == "undo"] == [[7, 4, 2]]
    assert not any(e.get("event") == "illegal" for e in ev)


def test_lifted_peg_lights_its_landing_holes():
    hw, app = make_app()
    new_game(app, hw, 1)
    hw.sensors.set(start_mask(B, 1) & ~(1 << 3))  # lift 4: it can land in 1 (over 2)
    run(app, hw, 40)
    st = ask(app, hw, "state")
    assert st["lifted"] == 4 and st["landing"] == [1]


def test_hint_button_short_and_long_press():
    hw, app = make_app()
    new_game(app, hw, 4)
    hw.button.set(1)
    run(app, hw, 100)
    hw.button.set(0)
    run(app, hw, 20)
    ev = [json.loads(x) for x in hw.serial.lines()]
    hint = [e for e in ev if e.get("event") == "hint"][0]
    assert hint["solvable"] and hint["best_left"] == 1
    f, o, t = hint["move"]
    frame = hw.frames[-1]
    assert len({frame[f - 1], frame[o - 1], frame[t - 1]}) == 3  # three distinct colours
    hw.button.set(1)
    run(app, hw, 900)
    hw.button.set(0)
    run(app, hw, 1300)
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert [e["step"] for e in ev if e.get("event") == "demo_step"][:1] == [1]
    assert ask(app, hw, "state")["mode"] == "demo"
    hw.button.set(1)  # any press stops the demonstration
    run(app, hw, 50)
    hw.button.set(0)
    run(app, hw, 50)
    assert ask(app, hw, "state")["mode"] == "play"


def test_hint_on_a_lost_position_says_so():
    hw, app = make_app()
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 200)
    # play into a lost position: 4->1, then 11->4 over 7, then 1->6? use solver's best_left
    mask = start_mask(B, 1)
    for mv in ([4, 2, 1], [6, 5, 4], [1, 3, 6], [12, 8, 5]):
        mask = play_jump(hw, app, mask, mv)
    r = ask(app, hw, "hint")
    s = Solver(B)
    assert r["solvable"] == s.solvable(mask)
    assert r["best_left"] == s.best_left(mask)


def test_demo_guide_and_move_list_validation():
    hw, app = make_app()
    new_game(app, hw, 1)
    r = ask(app, hw, "demo", moves=[[4, 2, 1], [4, 2, 1]])
    assert r == {"id": 7, "ok": False, "error": "illegal_move", "message": r["message"], "step": 1}
    assert ask(app, hw, "state")["mode"] == "play"  # rejected: nothing changed
    sol = [B.move_of(j) for j in Solver(B).solution(start_mask(B, 1))]
    assert ask(app, hw, "guide", moves=sol)["steps"] == 13
    assert ask(app, hw, "demo")["error"] == "busy"
    mask = play_jump(hw, app, start_mask(B, 1), sol[0])
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert [e["step"] for e in ev if e.get("event") == "guide_step"] == [1]
    assert ask(app, hw, "state")["mode"] == "guide"
    # a different legal move is lit to be put back; guidance goes on (tests/test_fw_guide.py)
    legal = [B.move_of(j) for j in legal_jumps(B, mask) if B.move_of(j) != sol[1]]
    assert legal, "the position after the first move offers more than the guided move"
    play_jump(hw, app, mask, legal[0])
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert not [e for e in ev if e.get("event") == "guide_off"]
    assert [e["move"] for e in ev if e.get("event") == "guide_astray"] == [legal[0]]
    assert [e["move"] for e in ev if e.get("event") == "move"] == [legal[0]]
    assert ask(app, hw, "state")["mode"] == "guide" and ask(app, hw, "demo")["error"] == "busy"
    assert ask(app, hw, "stop")["stopped"] == "guide"
    assert ask(app, hw, "state")["mode"] == "play" and ask(app, hw, "demo")["ok"]  # no longer busy


def test_solve_with_finish_and_not_solvable():
    hw, app = make_app()
    new_game(app, hw, 5)
    as_on_the_chip()
    assert ask(app, hw, "solve", finish=1)["error"] == "not_solvable"
    moves = ask(app, hw, "solve", finish=13)["moves"]
    assert len(moves) == 13 and moves[-1][2] == 13
    assert ask(app, hw, "solve", finish=0)["error"] == "bad_args"
    loaded = [m for m in ("pegfw.jobs", "pegcore.finishfile", "pegfw.game_requests", "pegfw.board_requests") if m in __import__("sys").modules]
    assert app.job is None and not loaded  # nothing left behind


@pytest.mark.parametrize("empty", [4, pytest.param(1, marks=pytest.mark.soak), pytest.param(2, marks=pytest.mark.soak),
                                   pytest.param(5, marks=pytest.mark.soak)])  # start 4: the most finishes
def test_solve_with_every_finish_hole_walks_the_finish_table(empty):
    """Every finish hole from each start of the 15-hole board (up to symmetry): a legal line ending
    in the finish exactly where the exhaustive count says one exists, else not_solvable."""
    from test_core_reference import FINISHES as FINISH_COUNTS

    hw, app = make_app()
    new_game(app, hw, empty)
    for finish in range(1, 16):
        r = ask(app, hw, "solve", finish=finish)
        if FINISH_COUNTS[empty].get(finish):
            mask = start_mask(B, empty)
            for f, o, t in r["moves"]:
                j = B.find_jump(f, o, t)
                assert j >= 0 and mask & B.need[j] == B.need[j] and not mask & B.land[j]
                mask ^= B.flip[j]
            assert mask == 1 << (finish - 1)
        else:
            assert r["error"] == "not_solvable", (empty, finish)


def test_solve_on_a_board_without_tables_searches_in_slices():
    hw, app = make_app(HW({"PEGBOARD_ROWS": 6, "PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_CLOCK": "GP2",
                           "PEGBOARD_SR_DATA": "GP3", "PEGBOARD_SR_LATCH": "GP4"}))
    b6 = Board(6)
    hw.sensors.set(start_mask(b6, 1))
    run(app, hw, 200)
    hw.serial.lines()
    hw.serial.rx += b'{"id": 3, "cmd": "solve", "finish": 1}\n'
    run(app, hw, 3)
    assert app.job is not None  # still searching: the loop went on
    replies = []
    for _ in range(400):
        run(app, hw, 5)
        replies += [json.loads(x) for x in hw.serial.lines()]
        if any("event" not in r for r in replies):
            break
    r = [r for r in replies if "event" not in r][0]
    assert r["id"] == 3 and len(r["moves"]) == 19  # solvable: the search finds it within its budget
    mask = start_mask(b6, 1)
    for move in r["moves"]:
        j = b6.find_jump(*move)
        assert j >= 0 and mask & b6.need[j] == b6.need[j] and not mask & b6.land[j]
        mask ^= b6.flip[j]
    assert mask == 1


@pytest.mark.parametrize("line,code", [
    (b"{nope\n", "bad_json"), (b"\xff\xfe\n", "bad_json"), (b"[1,2]\n", "bad_json"),
    (b'{"cmd": 5}\n', "bad_args"), (b'{"id": [1], "cmd": "info"}\n', "bad_args"),
    (b'{"cmd": "fly"}\n', "unknown_cmd"), (b"x" * 600 + b"\n", "line_too_long"),
    (b"[" * 50 + b"]" * 50 + b"\n", "bad_json"), (b'{"cmd":"brightness","value":101}\n', "bad_args"),
    (b'{"cmd":"demo","moves":"x"}\n', "bad_args"), (b'{"cmd":"watch","speed":-1}\n', "bad_args"),
    # shapes CircuitPython's lenient json.loads would take (and drop an argument of)
    (b'{"id":1 "cmd":"state"}\n', "bad_json"), (b'{"id":2,"cmd" "state"}\n', "bad_json"),
    (b'{"id":3,"cmd":"state",}\n', "bad_json"), (b'{"cmd":"solve","finish":}\n', "bad_json"),
    (b'{"cmd":"solve","finish" 13}\n', "bad_json"), (b'{"cmd":"state"}}\n', "bad_json"),
    (b'{"cmd":"demo","moves":[[4,2,1] [6,5,4]]}\n', "bad_json"), (b'{"cmd":"state" \n', "bad_json"),
])
def test_bad_requests_get_one_error_reply(line, code):
    hw, app = make_app()
    new_game(app, hw, 1)
    before = ask(app, hw, "state")
    replies = [r for r in send(app, hw, line) if "event" not in r]
    assert len(replies) == 1 and replies[0]["ok"] is False and replies[0]["error"] == code
    after = ask(app, hw, "state")
    assert after["pegs"] == before["pegs"] and after["moves"] == before["moves"]


def test_bare_words_crlf_and_id_echo():
    hw, app = make_app()
    r = send(app, hw, b"info\r\n")
    assert r[0]["protocol"] == 1 and r[0]["holes"] == 15
    r = send(app, hw, b'{"id":"abc","cmd":"info"}\r\n')
    assert r[0]["id"] == "abc"


def test_long_line_is_discarded_up_to_its_newline_even_in_pieces():
    hw, app = make_app()
    hw.serial.rx += b"y" * 400
    run(app, hw, 10)
    hw.serial.rx += b"y" * 400
    run(app, hw, 10)
    hw.serial.rx += b"yyy\n" + b'{"id":1,"cmd":"info"}\n'
    run(app, hw, 10)
    r = [json.loads(x) for x in hw.serial.lines()]
    assert [x.get("error") for x in r] == ["line_too_long", None]


def test_host_that_never_reads_drops_events_not_the_loop():
    hw, app = make_app()
    hw.serial.room = 0
    new_game(app, hw, 1)
    for _ in range(200):
        hw.sensors.set(hw.sensors.state ^ (1 << 14))
        run(app, hw, 25)
    assert app.link.dropped > 0
    assert len(app.link.out) <= 6144
    hw.serial.room = 1 << 30
    st = ask(app, hw, "state")  # replies still get through once the host reads again
    assert st["dropped"] > 0 and st["mode"] == "play"


def test_current_limit_holds_for_every_frame():
    hw, app = make_app(HW({"PEGBOARD_BRIGHTNESS": 100, "PEGBOARD_CURRENT_MA": 150}))
    new_game(app, hw, 1)
    hw.button.set(1)
    run(app, hw, 900)
    hw.button.set(0)
    run(app, hw, 3000)
    assert hw.frames
    assert max(estimate_ma(f) for f in hw.frames) <= 150


def test_overflow_rereads_the_whole_board():
    hw, app = make_app()
    new_game(app, hw, 1)
    hw.sensors.events.limit = 4
    for k in range(10):  # a burst the queue cannot hold
        hw.sensors.set(hw.sensors.state ^ (1 << (k % 14 + 1)))
    hw.sensors.set(start_mask(B, 1))
    run(app, hw, 300)
    ev = [json.loads(x) for x in hw.serial.lines()]
    assert any(e.get("event") == "overflow" for e in ev)
    st = ask(app, hw, "state")
    assert st["pegs"] == holes_of(start_mask(B, 1)) and st["mode"] == "play"


def test_nvm_stats_survive_and_resume_after_power_loss():
    nvm = FlashNvm()
    hw, app = make_app(HW(nvm=nvm))
    new_game(app, hw, 1)
    mask = start_mask(B, 1)
    for mv in ([4, 2, 1], [6, 5, 4]):
        mask = play_jump(hw, app, mask, mv)
    # blank flash: the header and the log's free space written once; the game and each move are
    # appended into erased bytes: programmed, never an erase
    assert (nvm.erases, nvm.programs) == (0, 4)
    hw2 = HW(nvm=nvm)
    hw2.sensors.state = mask  # the pegs stay where they were
    hw2, app2 = make_app(hw2)
    run(app2, hw2, 200)
    st = ask(app2, hw2, "state")
    assert st["empty_start"] == 1 and st["moves"] == [[4, 2, 1], [6, 5, 4]] and st["mode"] == "play"
    assert ask(app2, hw2, "stats")["games"] == 1


def test_corrupt_nvm_record_is_ignored():
    nvm = FlashNvm()
    hw, app = make_app(HW(nvm=nvm))
    new_game(app, hw, 1)
    nvm[5] ^= 0xFF
    hw2, app2 = make_app(HW(nvm=nvm))
    s = ask(app2, hw2, "stats")
    assert s["games"] == 0 and s["corrupt_record_ignored"] is True


def test_watch_and_single_step():
    hw, app = make_app()
    new_game(app, hw, 1)
    assert ask(app, hw, "watch", step=True)["speed"] == 0
    first = ask(app, hw, "watch", step=True)["step"]
    second = ask(app, hw, "watch", step=True)["step"]
    assert second == first + 1
    assert ask(app, hw, "stop")["stopped"] == "watch"


def test_a_watch_running_at_a_speed_goes_on_a_step_at_a_time_from_where_it_is():
    hw, app = make_app()
    new_game(app, hw, 1)
    assert ask(app, hw, "watch", speed=1)["speed"] == 1
    run(app, hw, 100)  # 100 ms at 1 ms a step: the search is under way
    ran = app.shows.show.count
    assert ran > 0
    stepped = ask(app, hw, "watch", step=True)["step"]
    assert app.shows.show.speed_ms == 0 and stepped >= ran + 1, "it went on, not from the start"
    assert ask(app, hw, "watch", step=True)["step"] == stepped + 1
    assert ask(app, hw, "stop")["stopped"] == "watch"


def test_requests_wait_while_replies_cannot_leave():
    hw, app = make_app()
    hw.serial.room = 0
    hw.serial.rx += b"".join(b'{"id":%d,"cmd":"state"}\n' % i for i in range(60))
    run(app, hw, 200)
    assert len(app.link.out) <= 6144  # bounded while the host does not read
    hw.serial.room = 1 << 30
    run(app, hw, 400)
    ids = [json.loads(x).get("id") for x in hw.serial.lines()]
    assert [i for i in ids if i is not None] == list(range(60))  # every reply, in order, none lost


def as_on_the_chip():
    """Drop the modules that only some requests load, as a fresh chip has them: other tests here
    loaded them, and a request gives back exactly what it loaded itself (pegfw.ondemand)."""
    from pegfw.ondemand import unload

    for name in ("pegcore.parity", "pegcore.search", "pegcore.finishfile", "pegcore.book", "pegfw.jobs", "pegfw.job",
                 "pegfw.show_watch", "pegfw.show_chase", "pegfw.game_requests", "pegfw.board_requests",
                 "pegfw.position_requests", "pegfw.store_records", "pegfw.store_tokens"):
        unload(name)


def test_rare_code_leaves_the_heap_when_done():
    # rare requests and finished shows give their modules back (the chip compiles them again
    # when asked): the game keeps the heap
    import sys

    hw, app = make_app()
    new_game(app, hw)
    as_on_the_chip()
    before = {m for m in sys.modules if m.startswith("peg")}
    for cmd, args in (("stats", {}), ("brightness", {"value": 30}), ("solve", {"finish": 13})):
        assert ask(app, hw, cmd, **args)["ok"]
        assert {m for m in sys.modules if m.startswith("peg")} == before
    assert ask(app, hw, "selftest", seconds=1)["ok"]
    assert "pegfw.show_chase" in sys.modules  # the running show keeps its code
    run(app, hw, 2500)  # the chase runs once along the chain and ends
    assert app.shows.show is None and "pegfw.show_chase" not in sys.modules
    assert ask(app, hw, "watch", speed=5)["ok"]
    assert "pegfw.show_watch" in sys.modules
    assert ask(app, hw, "stop")["stopped"] == "watch"
    assert "pegfw.show_watch" not in sys.modules and "pegcore.search" not in sys.modules
    # the same requests work again, their code compiled anew
    assert ask(app, hw, "stats")["ok"] and ask(app, hw, "watch", speed=5)["ok"]


def test_a_hint_on_hand_placed_pegs_is_a_table_lookup():
    # in setup the pegs are hand-made: the table holds every mask of the board, so even these
    # are answered without a search (nothing built, no memo in the heap)
    for mask in (0b000000000011111, 0b101010101010101, 0, 1 << 14, (1 << 15) - 1):
        hw, app = make_app()
        hw.sensors.set(mask)
        run(app, hw, 200)
        hw.serial.lines()
        r = ask(app, hw, "hint")
        solver = Solver(B)
        assert r["ok"] and r["best_left"] == solver.best_left(mask)
        if r["move"] is not None:
            j = B.find_jump(*r["move"])
            assert solver.best_left(mask ^ B.flip[j]) == r["best_left"]
        assert app.advisor._solver is None
        st = ask(app, hw, "state")
        assert st["mode"] == "setup" and st["solvable"] == (r["best_left"] == 1)


def test_frames_hold_only_small_ints_for_a_32_bit_chip():
    # a 32-bit CircuitPython keeps ints below 2**30 unboxed; anything bigger would be allocated
    # in every frame (or fail on builds without long ints)
    hw, app = make_app()
    new_game(app, hw)
    mask = start_mask(B, 1)
    for j in Solver(B).solution(mask):
        mask = play_jump(hw, app, mask, B.move_of(j))
    run(app, hw, 3000)  # the rainbow of a one-peg finish
    ask(app, hw, "brightness", value=100)
    run(app, hw, 200)
    seen = [c for f in hw.frames for c in f] + list(app.limiter._scaled) + list(app.limiter._scaled.values())
    assert seen and max(seen) < 1 << 24 and min(seen) >= 0


def test_a_request_the_heap_cannot_hold_gets_an_answer(monkeypatch):
    import pegfw.board_requests as more

    def short_of_memory(app, rid, req, now):
        raise MemoryError

    monkeypatch.setattr(more, "cmd_stats", short_of_memory)
    hw, app = make_app()
    new_game(app, hw)
    r = ask(app, hw, "stats")
    assert not r["ok"] and r["error"] == "no_memory" and r["id"] == 7
    assert ask(app, hw, "state")["empty_start"] == 1 and app.errors == 0


def big_board(rows):
    hw = HW({"PEGBOARD_ROWS": rows, "PEGBOARD_SENSORS": "shift", "PEGBOARD_SR_CLOCK": "GP2",
             "PEGBOARD_SR_DATA": "GP3", "PEGBOARD_SR_LATCH": "GP4"})
    return make_app(hw)


def off_book(hw, app, board, start, solvable=True):
    """A game from `start` with one first move the opening book does not play (so the board has to
    search), one that keeps a win if `solvable`; the position after it."""
    from pegcore.book import load, path_for

    line = load(board, path_for(board.rows)).get(start, b"")
    mask = start_mask(board, start)
    hw.sensors.set(mask)
    run(app, hw, 200)
    solver = Solver(board)
    j = [k for k in legal_jumps(board, mask) if (not line or k != line[0])
         and solver.solvable(mask ^ board.flip[k]) == solvable][0]
    for bit in (board.jump_from[j], board.jump_to[j], board.jump_over[j]):
        mask ^= 1 << bit
        hw.sensors.set(mask)
        run(app, hw, 40)
    hw.serial.lines()
    assert app.tracker.position == mask and len(app.tracker.moves) == 1
    return mask


def press_until(app, hw, ms, kind, passes=200):
    """Press the button for `ms`, then run the loop until the `kind` show runs (a search first)."""
    hw.button.set(1)
    run(app, hw, ms)
    hw.button.set(0)
    for _ in range(passes):
        run(app, hw, 5)
        if app.shows.kind == kind:
            return


def test_hint_and_demo_on_a_board_without_the_table_search_in_slices():
    b6 = Board(6)
    hw, app = big_board(6)
    assert app.table is None
    pos = off_book(hw, app, b6, 1)
    hw.serial.rx += b'{"id": 1, "cmd": "hint"}\n'
    run(app, hw, 5)
    assert app.job is not None and app.job.nodes <= 8  # one slice in that pass, no more
    r = ask(app, hw, "state")  # the loop answers other requests meanwhile
    assert r["mode"] == "play"
    replies = []
    for _ in range(200):
        run(app, hw, 5)
        replies += [json.loads(x) for x in hw.serial.lines()]
        if any(x.get("id") == 1 for x in replies):
            break
    h = [x for x in replies if x.get("id") == 1][0]
    assert h["solvable"] is True and h["best_left"] == 1
    j = b6.find_jump(*h["move"])
    assert Solver(b6).solvable(pos ^ b6.flip[j])
    assert [x for x in replies if x.get("event") == "hint"] and app.shows.kind == "hint"
    # a long press: the demonstration starts once its line is found
    press_until(app, hw, 900, "demo")
    assert app.shows.kind == "demo" and len(app.shows.show.jumps) == 18 and app.job is None


def test_a_search_that_cannot_finish_says_so_and_leaves_nothing():
    import sys

    from pegfw.job import JOB_LIMIT

    b7 = Board(7)
    hw, app = big_board(7)
    off_book(hw, app, b7, 2)
    as_on_the_chip()
    r = ask(app, hw, "hint", passes=4000)
    assert r["error"] == "search_limit" and "after %d positions" % JOB_LIMIT in r["message"]
    assert app.job is None and "pegcore.search" not in sys.modules and "pegfw.jobs" not in sys.modules
    # the button asks the same: the answer is a refused event (not an error: nothing went wrong), and the board goes on
    hw.button.set(1)
    run(app, hw, 50)
    hw.button.set(0)
    events = []
    for _ in range(400):
        run(app, hw, 5)
        events += [json.loads(x) for x in hw.serial.lines()]
        if app.job is None and any(e.get("event") == "refused" for e in events):
            break
    err = [e for e in events if e.get("event") == "refused"]
    assert err and err[0]["code"] == "search_limit" and app.job is None
    assert not [e for e in events if e.get("event") == "error"] and app.errors == 0
    assert ask(app, hw, "state")["mode"] == "play"


def test_a_move_while_the_board_searches_cancels_the_stale_answer():
    b6 = Board(6)
    hw, app = big_board(6)
    mask = off_book(hw, app, b6, 14)
    hw.serial.rx += b'{"id": 5, "cmd": "hint"}\n'
    run(app, hw, 5)
    assert app.job is not None
    j = legal_jumps(b6, mask)[0]
    for bit in (b6.jump_from[j], b6.jump_to[j], b6.jump_over[j]):  # the player moves before the answer
        mask ^= 1 << bit
        hw.sensors.set(mask)
        run(app, hw, 5)
    replies = []
    for _ in range(100):
        run(app, hw, 5)
        replies += [json.loads(x) for x in hw.serial.lines()]
    mine = [r for r in replies if r.get("id") == 5]
    assert len(mine) == 1 and mine[0]["error"] == "position_changed"
    assert app.job is None and app.shows.kind != "hint"


def test_a_damaged_finish_table_answers_once_and_the_loop_goes_on(tmp_path):
    import shutil

    root = tmp_path / "pegcore"
    root.mkdir()
    src = __import__("pathlib").Path(__file__).resolve().parent.parent / "firmware" / "pegcore"
    shutil.copy(src / "t5_hints.bin", root / "t5_hints.bin")
    data = bytearray((src / "t5_finish.bin").read_bytes())
    for i in range(11 + 2 * data[4], len(data)):
        data[i] = 0xEE  # every slot's palette index out of range
    (root / "t5_finish.bin").write_bytes(bytes(data))
    from pegfw.app import App
    from pegfw.startup import load_table

    hw = HW()
    app = App(hw, hw.cfg, load_table(5, str(root / "t5_hints.bin")))
    new_game(app, hw, 1)
    fed = hw.fed
    r = ask(app, hw, "solve", finish=13)
    assert r["error"] == "no_table" and app.job is None
    assert hw.fed > fed and ask(app, hw, "state")["ok"]  # the watchdog was fed all along


def test_running_out_of_memory_as_a_search_starts_leaves_nothing(monkeypatch):
    import sys

    from pegcore import search

    def no_heap(*a, **k):
        raise MemoryError

    b6 = Board(6)
    hw, app = big_board(6)
    off_book(hw, app, b6, 1)
    monkeypatch.setattr(search.SolutionSearch, "__init__", no_heap)
    r = ask(app, hw, "hint")
    assert r["error"] == "no_memory" and app.job is None
    assert "pegfw.jobs" not in sys.modules


def test_stats_measures_a_searched_hint_from_the_button():
    b6 = Board(6)
    hw, app = big_board(6)
    off_book(hw, app, b6, 1)
    press_until(app, hw, 50, "hint")
    st = ask(app, hw, "stats")
    assert st["last_hint_ms"] >= 5  # release -> lights, over the passes the search took


def test_on_28_holes_the_opening_book_answers_hints_and_demos_without_searching():
    from pegcore.book import load, path_for

    b7 = Board(7)
    line = load(b7, path_for(7))[2]
    hw, app = big_board(7)
    mask = start_mask(b7, 2)
    hw.sensors.set(mask)
    run(app, hw, 200)
    hw.serial.lines()
    for k in range(3):  # along the book's line: every hint answers at once, no job
        r = ask(app, hw, "hint")
        assert r["move"] == b7.move_of(line[k]) and r["solvable"] and app.job is None
        f, o, t = (1 << (h - 1) for h in r["move"])
        for step in (~f, t, ~o):
            mask = mask & step if step < 0 else mask | step
            hw.sensors.set(mask)
            run(app, hw, 40)
        hw.serial.lines()
    r = ask(app, hw, "solve")
    assert r["moves"] == [b7.move_of(j) for j in line[3:]]
    r = ask(app, hw, "demo")
    assert r["moves"] == [b7.move_of(j) for j in line[3:]] and app.shows.kind == "demo"
