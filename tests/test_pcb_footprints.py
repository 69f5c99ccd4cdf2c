"""Every footprint on the printed board is KiCad's own: the copies pegboard reads are the installed
library's files, every pad on the board is its library footprint's pad (a bottom part flipped as
KiCad flips it), KiCad itself agrees pad by pad, and the silkscreen carries every reference and the
library's pin-1 and polarity marks."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from pegboard.hardware import footprints as fp
from pegboard.hardware import kicad_pcb, pcb_files, sexpr

ROOT = Path(__file__).resolve().parent.parent
BOARD = ROOT / "hardware" / "pcb" / (kicad_pcb.NAME + ".kicad_pcb")
KICAD_LIBRARY = Path("/usr/share/kicad/footprints")  # Debian's kicad-footprints, where KiCad looks
INSTALL = "Debian's kicad-footprints (apt install kicad-footprints)"
CHECK = ROOT / "host" / "pegboard" / "hardware" / "kicad_footprint_check.py"


def board_footprints(text):
    """[(name, side, x, y, rot, {pad: (x, y, w, h, shape, drill, angle)})] from a .kicad_pcb."""
    tree = sexpr.parse(text)
    out = []
    for f in sexpr.items(tree, "footprint"):
        at = sexpr.item(f, "at")
        rot = float(at[3]) if len(at) > 3 else 0.0
        pads = {}
        for p in sexpr.items(f, "pad"):
            pat, size, drill = sexpr.item(p, "at"), sexpr.item(p, "size"), sexpr.item(p, "drill")
            pads[p[1]] = (float(pat[1]), float(pat[2]), float(size[1]), float(size[2]), p[3],
                          float(drill[1]) if drill else None, float(pat[3]) if len(pat) > 3 else 0.0)
        out.append((f[1], sexpr.item(f, "layer")[1][0], float(at[1]), float(at[2]), rot, pads))
    return out


def library_pads(name, side, rot):
    """The library footprint's pads as a board file stores them for a part on `side` at `rot`."""
    tree = sexpr.parse(fp.library_file(name).read_text())
    out = {}
    for p in sexpr.items(tree, "pad"):
        at, size, drill = sexpr.item(p, "at"), sexpr.item(p, "size"), sexpr.item(p, "drill")
        y = float(at[2])
        out[p[1]] = (float(at[1]), -y if side == "B" else y, float(size[1]), float(size[2]), p[3],
                     float(drill[1]) if drill else None, rot % 360)
    return out


def differences(text):
    wrong = []
    for name, side, _, _, rot, pads in board_footprints(text):
        want = library_pads(name, side, rot)
        if sorted(pads) != sorted(want):
            wrong.append((name, "pads", sorted(pads), sorted(want)))
            continue
        for number, got in pads.items():
            w = want[number]
            if any(abs(a - b) > 1e-4 for a, b in zip(got[:4], w[:4], strict=True)) or got[4:6] != w[4:6] \
                    or abs((got[6] - w[6] + 180) % 360 - 180) > 1e-6:
                wrong.append((name, number, got, w))
    return wrong


def test_the_footprints_pegboard_reads_are_kicads_installed_library_byte_for_byte():
    if not KICAD_LIBRARY.is_dir():
        pytest.skip("KiCad's footprint library is not installed: install " + INSTALL)
    copies = sorted(fp.LIBRARY.glob("*.pretty/*.kicad_mod"))
    assert len(copies) >= 10
    for copy in copies:
        own = KICAD_LIBRARY / copy.parent.name / copy.name
        assert own.is_file(), "%s is not in KiCad's library" % own
        assert copy.read_bytes() == own.read_bytes(), "%s differs from KiCad's %s" % (copy, own)


def test_every_pad_on_the_board_is_its_library_footprints_pad_a_bottom_part_flipped():
    text = BOARD.read_text()
    found = board_footprints(text)
    assert {name for name, *_ in found} >= {"LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                                            "Package_TO_SOT_SMD:SOT-23",
                                            "Connector_PinSocket_2.54mm:PinSocket_1x20_P2.54mm_Vertical"}
    assert differences(text) == []


def _mirrored_pixels(text):
    """The board with every WS2812B drawn mirrored (pad x negated), the fault the board once had."""
    def flip(block):
        return re.sub(r'(\(pad "\d" smd rect \(at )(-?[\d.]+)', lambda m: m.group(1) + str(-float(m.group(2))),
                      block.group(0))
    return re.sub(r'\(footprint "LED_SMD:LED_WS2812B[^\n]*\n(?:    [^\n]*\n)+?  \)', flip, text)


def test_a_mirrored_pixel_footprint_is_caught():
    bad = _mirrored_pixels(BOARD.read_text())
    assert bad != BOARD.read_text()
    wrong = differences(bad)
    assert len({w[0] for w in wrong}) == 1 and len(wrong) == 15 * 4  # every pad of every pixel


@pytest.fixture(scope="module")
def kicad():
    exe = pcb_files.kicad_python()
    if exe is None:
        pytest.skip("KiCad's Python module (pcbnew) is not installed: install " + pcb_files.INSTALL)
    if not KICAD_LIBRARY.is_dir():
        pytest.skip("KiCad's footprint library is not installed: install " + INSTALL)
    return exe


def _kicad_check(exe, board):
    run = subprocess.run([exe, str(CHECK), str(board), str(KICAD_LIBRARY)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_kicad_itself_finds_every_footprint_pad_for_pad_its_librarys(kicad):
    verdict = _kicad_check(kicad, BOARD)
    assert verdict["compared"] == len(board_footprints(BOARD.read_text()))
    assert verdict["wrong"] == []


def test_kicad_itself_catches_a_mirrored_pixel(kicad, tmp_path):
    bad = tmp_path / BOARD.name
    bad.write_text(_mirrored_pixels(BOARD.read_text()))
    verdict = _kicad_check(kicad, bad)
    assert {w["ref"] for w in verdict["wrong"]} == {"D%d" % h for h in range(1, 16)}


def test_the_silkscreen_names_every_part_and_keeps_the_librarys_pin_1_and_polarity_marks():
    tree = sexpr.parse(BOARD.read_text())
    on_silk, marks = set(), {}
    for f in sexpr.items(tree, "footprint"):
        side = sexpr.item(f, "layer")[1][0]
        ref = next(t[2] for t in sexpr.items(f, "fp_text") if t[1] == "reference")
        for t in sexpr.items(f, "fp_text"):
            if t[1] == "reference" and sexpr.item(t, "layer")[1] == side + ".SilkS":
                on_silk.add(ref)
        marks[ref] = sum(1 for node in f[1:] if isinstance(node, list) and node[0] in ("fp_line", "fp_text")
                         and sexpr.item(node, "layer") and sexpr.item(node, "layer")[1] == side + ".SilkS")
    parts = {p.ref for p in __import__("pegboard.hardware.pcb", fromlist=["x"]).placement()}
    assert parts <= on_silk, sorted(parts - on_silk)
    # the pixels' "1" by pin 1, the can's + and the sockets' pin-1 corner are the library's silk
    for ref in ("D1", "C1", "U2", "U5", "J2", "J3", "S1"):
        assert marks[ref] >= 3, ref
    d1 = next(f for f in sexpr.items(tree, "footprint") if any(t[1] == "reference" and t[2] == "D1"
                                                               for t in sexpr.items(f, "fp_text")))
    assert any(t[1] == "user" and t[2] == "1" and sexpr.item(t, "layer")[1] == "F.SilkS"
               for t in sexpr.items(d1, "fp_text"))
    words = [t[1] for t in sexpr.items(tree, "gr_text")]
    assert any(w.startswith("pegboard t5 rev") for w in words)
    assert sorted(int(w) for w in words if w.isdigit()) == sorted(list(range(1, 16)) * 2)


def drill_marks(gerber, vias):
    """The flashes of a silk Gerber that stand on a via (vias are tented: only a drill mark would)."""
    at = {(round(x * 1000), round(-y * 1000)) for x, y in vias}
    return [m for m in re.findall(r"^X(-?\d+)Y(-?\d+)D03\*$", gerber, re.M)
            if (round(int(m[0]) / 1000), round(int(m[1]) / 1000)) in at]


def test_the_silkscreen_gerbers_carry_no_drill_marks():
    tree = sexpr.parse(BOARD.read_text())
    vias = [(float(sexpr.item(v, "at")[1]), float(sexpr.item(v, "at")[2])) for v in sexpr.items(tree, "via")]
    assert len(vias) > 20
    for name in ("F_SilkS.gto", "B_SilkS.gbo"):
        gerber = (ROOT / "hardware" / "pcb" / "fab" / ("%s-%s" % (kicad_pcb.NAME, name))).read_text()
        assert drill_marks(gerber, vias) == [], name
