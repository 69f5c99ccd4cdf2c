"""The games the board keeps (issue "records", item 1): every finished or abandoned game stays in
the NVM record (its log entries, and REC entries a compaction carries over), `records` reads them
back page by page, and `pegboard games` lists them and exports one as a solution file that replays
legally to the same end. A power cut while a game's record is written loses at most that game; one
inside a compaction loses at most what docs/protocol.md states, never a wrong record."""

import json
import random
import sys

import pytest
from fakehw import HW, FlashNvm, PowerCut, make_app
from support import ask, output, stored
from test_fw_scored import Hands

from pegcore.geometry import Board, start_mask
from pegcore.moves import validate_moves
from pegcore.rules import legal_jumps, mask_of, popcount
from pegcore.solver import Solver
from pegfw import store_log, store_records
from pegfw.nvm_format import HEAD
from pegfw.store_records import REC, record_bytes, records_kept
from pegfw.store import Store

B = Board(5)


def play_games(h, n, cut_in=None, seed=3):
    """n games by hand on Hands `h`: won, lost or abandoned (the board emptied after a few moves);
    the power cut during game `cut_in`'s writes (its entries: moves, score). The games as played:
    (start, moves, result), result the pegs left or "abandoned"."""
    rnd = random.Random(seed)
    played = []
    for g in range(1, n + 1):
        e = rnd.randrange(1, 16)
        mask = start_mask(B, e)
        h.set(mask)
        kind = g % 3  # 0: won, 1: random to the end, 2: abandoned
        line = Solver(B).solution(mask) if kind == 0 else []
        moves = []
        while legal_jumps(B, mask) and not (kind == 2 and len(moves) == 3):
            j = line[len(moves)] if line else rnd.choice(legal_jumps(B, mask))
            if g == cut_in and len(moves) == 2:
                h.nvm.cut_after = 0  # the next flash write is cut: this move's entry
            h.jump(j)
            mask ^= B.flip[j]
            moves.append(B.move_of(j))
        if kind == 2:
            h.set(0)  # the board emptied: abandoned
            played.append((start_mask(B, e), moves, "abandoned"))
        else:
            played.append((start_mask(B, e), moves, popcount(mask)))
    return played


def records(app, hw):
    games, page, pages = [], 0, 1
    while page < pages:
        r = ask(app, hw, "records", page=page)
        assert r["ok"] and r["page"] == page and len(r["games"]) <= 5, r
        games += r["games"]
        pages = r["pages"]
        page += 1
    assert [g["n"] for g in games] == list(range(1, len(games) + 1))
    return games


def test_ten_games_and_a_cut_inside_the_fifth_are_all_kept_and_replay():
    h = Hands(FlashNvm())
    played = play_games(h, 10, cut_in=5)
    assert h.cuts == 1 and not h.lost  # the cut fell on a log entry, not a compaction
    output(h.hw)
    kept = records(h.app, h.hw)
    got = [(mask_of(g["start"]), g["moves"], g["result"]) for g in kept]
    # every game but the one the cut fell in is there, in order; that one at most lost (docs/protocol.md:
    # the cut loses at most its last entry, and the pegs bring the move back on resume)
    assert got in (played, played[:4] + played[5:]), got
    for g, (start, moves, result) in zip(kept, [p for p in played if p in got], strict=True):
        end, _ = validate_moves(B, mask_of(g["start"]), g["moves"])  # legal, by pegcore's rules
        final, _ = validate_moves(B, start, moves)
        assert end == final and (result == "abandoned" or popcount(end) == result)


def test_pegboard_games_lists_and_exports_what_the_board_keeps(tmp_path, monkeypatch, capsys):
    from pegboard.commands import games as games_cmd
    from pegboard.commands.cli import main
    from pegboard.solve.solution_file import load_solution

    h = Hands(FlashNvm())
    played = play_games(h, 10, cut_in=5)
    output(h.hw)

    class Client:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def request(self, cmd, **args):
            r = ask(h.app, h.hw, cmd, **args)
            assert r["ok"], r
            return r

    monkeypatch.setattr(games_cmd, "connect", lambda args: Client())
    assert main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) >= 9 and lines[0].split()[0] == "1"
    assert main(["games", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    kept = out["games"]
    # each game with its time on the board's clock, and the personal bests per start after the list
    from pegboard.commands.games import time_text

    for g in kept:
        assert isinstance(g["seconds"], int) and lines[g["n"] - 1].endswith("  " + time_text(g))
    assert out["bests"] and lines.index("personal bests (fewest pegs, then fastest; a challenge's only when met):") \
        == len(kept)
    for b in out["bests"]:
        same = [g for g in kept if g["start"] == b["start"] and g["result"] != "abandoned"]
        assert (b["pegs"], b["seconds"]) == min((g["result"], g["seconds"]) for g in same)
    listed = [(mask_of(g["start"]), g["moves"]) for g in kept]
    games = [(start, moves) for start, moves, _ in played]
    assert listed in (games, games[:4] + games[5:]), listed  # the one the cut fell in at most lost
    for g in kept:
        path = tmp_path / ("game%d.json" % g["n"])
        assert main(["games", "--export", str(g["n"]), str(path)]) == 0
        sol = load_solution(path)  # checked completely: every move legal from its start
        end, _ = validate_moves(B, mask_of(sol["start"]), sol["moves"])
        assert sol["moves"] == g["moves"] and end == validate_moves(B, mask_of(g["start"]), g["moves"])[0]
        assert any(p[1] == g["moves"] and p[0] == mask_of(g["start"]) for p in played)
    capsys.readouterr()
    gif = tmp_path / "game1.gif"
    assert main(["games", "--gif", "1", str(gif)]) == 0 and gif.read_bytes()[:3] == b"GIF"
    assert main(["games", "--export", "99", str(tmp_path / "x.json")]) == 2


def store_games(nvm, n, seed=1):
    """n games through the Store alone (as the App logs them); the games as (start, result, moves)."""
    s = Store(nvm, 5)
    store_log.load(s)
    store_records.compact(s)
    rnd = random.Random(seed)
    played = []
    for g in range(n):
        m = start_mask(B, 1 + g % 15)
        s.new_game(m)
        start, moves = m, []
        while legal_jumps(B, m) and not (g % 4 == 3 and len(moves) == 3):
            j = rnd.choice(legal_jumps(B, m))
            s.move(j)
            moves.append(j)
            m ^= B.flip[j]
        if legal_jumps(B, m):
            s.abandon()
            played.append((start, 0, moves))
        else:
            s.game_over(popcount(m))
            played.append((start, popcount(m), moves))
        if s.low_on_room():
            s.compact()
    return s, played


def kept(nvm):
    s = stored(nvm)
    return [(r[0], r[2], list(r[3])) for r in store_records.games(s, True)]


def test_compactions_keep_the_newest_games_and_the_totals():
    nvm = FlashNvm()
    s, played = store_games(nvm, 700)
    assert nvm.erases >= 2  # compactions came, and carried games over
    got = kept(nvm)
    assert len(got) >= records_kept(15, 4096) == 79
    assert got == played[-len(got):]
    again = stored(nvm)
    assert (again.games, again.wins, again.abandoned) == (s.games, s.wins, s.abandoned)


def test_a_cut_inside_the_fifth_carried_record_loses_it_and_those_after_never_an_older_one():
    """The compaction (erase, then the sector programmed in address order: header, game in
    progress, the carried games oldest first) is cut in the middle of the fifth REC entry."""
    nvm = FlashNvm()
    s, played = store_games(nvm, 10)
    s.new_game(start_mask(B, 4))  # a game in progress, one move made
    s.move(legal_jumps(B, start_mask(B, 4))[0])
    fifth = HEAD + 2 + 1 + 4 + sum(record_bytes(15, len(p[2])) for p in played[:4])  # (start, move, its clock)
    assert nvm.data[HEAD] != REC
    nvm.cut_after = 1 + fifth + 4  # the erase, then bytes up to 4 into the fifth record
    with pytest.raises(PowerCut):
        store_records.compact(s)
    assert kept(nvm) == played[:4]
    again = stored(nvm)
    assert (again.games, again.start, len(again.moves)) == (11, start_mask(B, 4), 1)
    assert again.end is None  # the torn entry ends the log: the next write compacts it again
    store_records.compact(again)
    assert kept(nvm) == played[:4]


HEADER_BYTES = 16  # docs/protocol.md, "What the board keeps": the header before the log
REC_BYTES = 12  # "Every game is kept": a 0xFA entry (a game with its time) is 12 bytes plus one a move on 15 holes


def survivors(played, cut):
    """The games a compaction cut after `cut` flash steps keeps, by docs/protocol.md: a cut before
    the erase (step 0) changes nothing; after it the sector is programmed a byte a step in address
    order (the header, the game in progress, then a REC entry a game, oldest first), so the games
    whose entries were programmed whole are kept and the rest lost; a torn header loses all."""
    if cut == 0:
        return played
    programmed = cut - 1
    if programmed < HEADER_BYTES:
        return []
    kept, end = [], HEADER_BYTES  # (no game in progress: store_games ends each game)
    for game in played:
        end += REC_BYTES + len(game[2])
        if end > programmed:
            break
        kept.append(game)
    return kept


@pytest.mark.parametrize("cut", list(range(0, 500, 7)) + [4096, 4097])
def test_a_cut_anywhere_in_a_compaction_keeps_oldest_first_never_a_wrong_game(cut):
    nvm = FlashNvm()
    s, played = store_games(nvm, 20)
    assert not s.start and sum(REC_BYTES + len(g[2]) for g in played) + HEADER_BYTES < 500  # the cuts span it
    nvm.cut_after = cut
    try:
        store_records.compact(s)
    except PowerCut:
        pass
    assert kept(nvm) == survivors(played, cut)  # exactly those written whole, in order
    again = stored(nvm)
    assert again.games == (20 if cut == 0 or cut > HEADER_BYTES else 0)


def nearly_full(nvm, games):
    """A record whose log has fewer than 256 bytes left: the App rewrites it when nobody plays."""
    s, played = store_games(nvm, games)
    while not s.low_on_room():
        m = start_mask(B, 5)
        s.new_game(m)
        j = legal_jumps(B, m)[0]
        s.move(j)
        s.abandon()
        played.append((m, 0, [j]))
    return played


def test_the_app_rewrites_the_record_a_slice_a_quiet_pass_and_keeps_the_newest_games():
    nvm = FlashNvm()
    played = nearly_full(nvm, 150)
    h = Hands(nvm)
    steps = 0
    erases = nvm.erases
    for _ in range(400):
        h.run(20)
        if h.app.store.rewriting is not None:
            steps += 1
        if nvm.erases > erases:
            break
    assert nvm.erases == erases + 1 and steps >= 3  # one erase, after several passes of building
    assert h.app.store.rewriting is None and not h.app.store.low_on_room()
    got = kept(nvm)
    assert len(got) >= records_kept(15, 4096) and got == played[-len(got):]


def test_a_move_during_a_rewrite_stops_it_and_nothing_is_lost():
    nvm = FlashNvm()
    played = nearly_full(nvm, 150)
    h = Hands(nvm)
    for _ in range(400):  # until a rewrite is under way
        h.run(20)
        if h.app.store.rewriting is not None:
            break
    assert h.app.store.rewriting is not None
    erases = nvm.erases
    h.set(start_mask(B, 1))  # a new game set up, and a jump: the log grows meanwhile
    j = legal_jumps(B, start_mask(B, 1))[0]
    h.jump(j)
    h.run(100)
    assert h.app.store.rewriting is None and nvm.erases == erases  # stopped, nothing written
    h.run(3000)  # quiet again: the rewrite starts over and completes
    assert nvm.erases == erases + 1
    again = stored(nvm)
    assert again.start == start_mask(B, 1) and list(again.moves) == [j]
    got = kept(nvm)
    assert got == played[-len(got):]


def _sector_buffers(monkeypatch):
    """The NVM-sized buffers pegfw.store and pegfw.store_records make (their `bytearray`, looked up
    in their globals first; store_records loaded now, so that start-up's load finds this one)."""
    import pegfw.store

    made = []

    def spy(*args):
        b = bytearray(*args)
        if len(b) >= 1024:  # (not the small ones: an entry, a header)
            made.append(len(b))
        return b

    for module in (pegfw.store, store_records):
        monkeypatch.setattr(module, "bytearray", spy, raising=False)
    monkeypatch.setitem(sys.modules, "pegfw.store_records", store_records)  # (an App start drops it)
    return made


def test_a_new_boards_first_start_writes_its_record_without_a_4kb_buffer(monkeypatch):
    """At start-up the App's code is compiled and the heap in pieces: a blank sector (a new chip) is
    programmed in place, so start-up asks the heap for no 4 KB in one piece (on the chip VM, that
    request failed a new board's start now and then)."""
    made = _sector_buffers(monkeypatch)
    nvm = FlashNvm()
    make_app(HW(nvm=nvm))
    assert made == [] and nvm.erases == 0 and nvm.programs == 1
    assert bytes(nvm.data[HEAD:]) == b"\xff" * (len(nvm.data) - HEAD)  # the header alone, the log free


def test_a_foreign_record_is_erased_and_rewritten_at_start_from_one_buffer(monkeypatch):
    """A record that is not blank (foreign, damaged) needs the erase and a whole sector rebuilt:
    one buffer of the NVM's size, made by the rewrite, and the record is ours after."""
    made = _sector_buffers(monkeypatch)
    nvm = FlashNvm()
    nvm.data[100:104] = b"\x00\x01\x02\x03"  # not our header: a foreign record
    make_app(HW(nvm=nvm))
    assert made == [len(nvm.data)] and nvm.erases == 1
    kept = Store(nvm, 5)
    store_log.load(kept)
    assert kept.end == HEAD and bytes(nvm.data[HEAD:]) == b"\xff" * (len(nvm.data) - HEAD)
