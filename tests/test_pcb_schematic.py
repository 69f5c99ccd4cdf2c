"""The printed board's KiCad schematic: written from the same model as the board (what the
generator writes is what is committed), made of KiCad's own symbols, passed by KiCad's own ERC
(eeschema, driven by KiAuto on a virtual screen), and its KiCad netlist is the board's, net by net;
every footprint on the board links to its symbol."""

import shutil
import subprocess
from pathlib import Path

import pytest

from pegboard.hardware import kicad_pcb, kicad_sch, pcb, pcb_files, sexpr

ROOT = Path(__file__).resolve().parent.parent
PCB = ROOT / "hardware" / "pcb"
SCH = PCB / (kicad_pcb.NAME + ".kicad_sch")
BOARD = PCB / (kicad_pcb.NAME + ".kicad_pcb")
KIAUTO = "KiAuto (make kicad-tools: a venv of the system's python3, which has pcbnew, with pip's kiauto), xvfb and xdotool"


@pytest.fixture(scope="module")
def symbols():
    if kicad_sch.symbol_library() is None:
        pytest.skip("KiCad's symbol library is not installed: install " + pcb_files.SYMBOLS_INSTALL)


@pytest.fixture(scope="module")
def eeschema_do(symbols):
    exe = shutil.which("eeschema_do") or str(ROOT / ".venv-kicad" / "bin" / "eeschema_do")
    if not Path(exe).exists() or not (shutil.which("xvfb-run") or shutil.which("Xvfb")) \
            or not shutil.which("xdotool") or not shutil.which("eeschema"):
        pytest.skip("KiCad's ERC needs eeschema and " + KIAUTO)
    return exe


def test_the_committed_schematic_is_what_the_generator_writes(symbols):
    s, parts = pcb.schematic(), pcb.placement()
    assert SCH.read_text() == pcb_files.schematic_file(s, parts)[SCH.name], "run pegboard hardware pcb"


def test_every_symbol_is_kicads_own_and_every_part_has_the_boards_footprint():
    tree = sexpr.parse(SCH.read_text())
    embedded = {s[1] for s in sexpr.items(sexpr.item(tree, "lib_symbols"), "symbol")}
    placed = {p.ref: p for p in pcb.placement()}
    seen = {}
    for sym in sexpr.items(tree, "symbol"):
        props = {p[1]: p[2] for p in sexpr.items(sym, "property")}
        assert sexpr.item(sym, "lib_id")[1] in embedded
        if props["Reference"].startswith("#"):
            continue  # a power flag
        seen[props["Reference"]] = props["Footprint"]
    assert set(seen) == set(placed)
    assert all(seen[ref] == placed[ref].footprint.name for ref in placed)


def test_every_footprint_on_the_board_links_to_its_symbol():
    tree = sexpr.parse(BOARD.read_text())
    sch = sexpr.parse(SCH.read_text())
    uuids = {next(p[2] for p in sexpr.items(s, "property") if p[1] == "Reference"): sexpr.item(s, "uuid")[1]
             for s in sexpr.items(sch, "symbol") if sexpr.item(s, "unit")[1] == "1"}
    for f in sexpr.items(tree, "footprint"):
        ref = next(t[2] for t in sexpr.items(f, "fp_text") if t[1] == "reference")
        if ref.startswith("H"):
            continue  # a mounting hole: no symbol
        assert sexpr.item(f, "path")[1] == "/" + uuids[ref], ref


def _kiauto(exe, command, tmp_path):
    work = tmp_path / "sch"
    work.mkdir()
    shutil.copy(SCH, work / SCH.name)
    run = subprocess.run([exe, command, str(work / SCH.name), str(work / "out")], capture_output=True, text=True,
                         timeout=600)
    return run, work / "out"


def test_kicads_own_erc_finds_no_error_and_no_warning(eeschema_do, tmp_path):
    run, out = _kiauto(eeschema_do, "run_erc", tmp_path)
    report = (out / (kicad_pcb.NAME + ".erc")).read_text()
    assert run.returncode == 0, run.stderr[-3000:]
    assert "** ERC messages: 0  Errors 0  Warnings 0" in report, report


def nets_of_board(text):
    nets = {}
    for f in sexpr.items(sexpr.parse(text), "footprint"):
        ref = next(t[2] for t in sexpr.items(f, "fp_text") if t[1] == "reference")
        for p in sexpr.items(f, "pad"):
            net = sexpr.item(p, "net")
            if net:
                nets.setdefault(net[2], set()).add((ref, p[1]))
    return nets


def nets_of_netlist(text):
    nets = {}
    for net in sexpr.items(sexpr.item(sexpr.parse(text), "nets"), "net"):
        name = sexpr.item(net, "name")[1].lstrip("/")
        nodes = {(sexpr.item(n, "ref")[1], sexpr.item(n, "pin")[1]) for n in sexpr.items(net, "node")
                 if not sexpr.item(n, "ref")[1].startswith("#")}
        if nodes and not name.startswith("unconnected-"):
            nets[name] = nodes
    return nets


def test_kicads_netlist_of_the_schematic_is_the_boards_net_by_net(eeschema_do, tmp_path):
    run, out = _kiauto(eeschema_do, "netlist", tmp_path)
    assert run.returncode == 0, run.stderr[-3000:]
    schematic = nets_of_netlist((out / (kicad_pcb.NAME + ".net")).read_text())
    assert schematic == nets_of_board(BOARD.read_text())
