"""`pegboard hardware pcb`: the printed board's files in one folder (hardware/pcb/): the KiCad
board and project, the fab's BOM and placement file and the board's schematic, all from pegboard's
own Python; then, where KiCad's Python module is installed, KiCad's DRC on it, the Gerbers and
drill files and a picture of each side (kicad_run.py, run by the Python that has pcbnew)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pegboard.hardware import kicad_pcb, kicad_sch, pcb, pcb_picture
from pegboard.hardware.schematic import svg

KICAD_RUN = Path(__file__).with_name("kicad_run.py")
SYMBOLS_INSTALL = "KiCad's symbol library (Debian/Ubuntu: apt install kicad-symbols)"
INSTALL = "KiCad 6 or later with its Python module (Debian/Ubuntu: apt install kicad; elsewhere kicad.org)"
FAB = "fab"  # the folder of Gerbers and drill files, zipped as a fab's upload takes them


def design_files() -> dict[str, str]:
    """Every file the generator writes without KiCad: name -> text."""
    s = pcb.schematic()
    parts, placed, router = pcb.route()
    name = kicad_pcb.NAME
    return {name + ".kicad_pcb": kicad_pcb.board_text(s, parts, placed, router),
            name + ".kicad_pro": kicad_pcb.project_text(),
            name + "-bom.csv": kicad_pcb.bom_csv(s, parts),
            name + "-positions.csv": kicad_pcb.placement_csv(parts, placed),
            name + "-schematic.svg": svg(s)} | schematic_file(s, parts)


def schematic_file(s, parts) -> dict[str, str]:
    """The KiCad schematic, where KiCad's symbol library is installed (else nothing: `hardware pcb`
    says what to install)."""
    library = kicad_sch.symbol_library()
    if library is None:
        return {}
    values = {p.ref: kicad_pcb.value_of(s, p.ref) for p in parts}
    footprints = {p.ref: p.footprint.name for p in parts}
    return {kicad_pcb.NAME + ".kicad_sch": kicad_sch.text(s, values, footprints, library, pcb.pad_number,
                                                          "pegboard printed board, %s" % pcb.BOARD_FILE)}


def kicad_python() -> str | None:
    """A Python that can import pcbnew: this one, else the system's python3; None if neither."""
    candidates = [sys.executable] + [p for p in (shutil.which("python3"), "/usr/bin/python3") if p]
    for exe in dict.fromkeys(candidates):
        try:
            ok = subprocess.run([exe, "-c", "import pcbnew"], capture_output=True, timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = False
        if ok:
            return exe
    return None


def check(board: Path, out_dir: Path | None = None, python: str | None = None) -> dict:
    """KiCad's verdict on a board file: {"violations", "unconnected", "report", "files", ...}; with
    out_dir, the Gerbers, drill files and side plots are written there. Raises RuntimeError when
    KiCad cannot be run."""
    exe = python or kicad_python()
    if exe is None:
        raise RuntimeError("KiCad's Python module (pcbnew) is not installed: install " + INSTALL)
    with tempfile.TemporaryDirectory() as tmp:
        # the board and its project side by side (KiCad reads the rules from the .kicad_pro)
        work = Path(tmp)
        for f in board.parent.glob(board.stem + ".kicad_p*"):
            shutil.copy(f, work / f.name)
        target = (out_dir or work).resolve()  # KiCad puts plots relative to the board file
        args = [exe, str(KICAD_RUN), str(work / board.name), str(target)] + ([] if out_dir else ["--check-only"])
        run = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise RuntimeError("KiCad failed on %s: %s" % (board, run.stderr.strip()[-2000:]))
        return json.loads(run.stdout.strip().splitlines()[-1])


def pictures(plots: Path, out: Path) -> list[Path]:
    """Compose the side plots kicad_run wrote into one picture per side, and remove the plots."""
    written = []
    for side in ("top", "bottom"):
        layers = {}
        for f in sorted(plots.glob("*-%s-*.svg" % side)):
            kind = "Edge_Cuts" if f.stem.endswith("Edge_Cuts") else f.stem.rsplit("_", 1)[1]
            layers[kind] = f.read_text()
            f.unlink()
        path = out / ("%s-%s.svg" % (kicad_pcb.NAME, side))
        path.write_text(pcb_picture.compose(layers, "pegboard printed board, %s side%s" % (
            side, " (seen from below)" if side == "bottom" else "")))
        written.append(path)
    return written


IBOM_INSTALL = "InteractiveHtmlBom (make kicad-tools) and xvfb"


def ibom_tool() -> list[str] | None:
    """InteractiveHtmlBom's command, on a virtual screen (it draws with KiCad's wx): on PATH or in
    the checkout's .venv-kicad (make kicad-tools); None where it or xvfb-run is missing."""
    here = Path(__file__).resolve().parents[3] / ".venv-kicad" / "bin" / "generate_interactive_bom"
    exe = shutil.which("generate_interactive_bom") or (str(here) if here.exists() else None)
    xvfb = shutil.which("xvfb-run")
    return [xvfb, "-a", exe] if exe and xvfb else None


def _virtual_screen(tool: list[str], attempt: int) -> list[str]:
    """xvfb-run -a looks for a free display from -n up, and two started at once can pick the same:
    each attempt starts its search somewhere else (this process's own range)."""
    return tool[:2] + ["-n", str(100 + (os.getpid() * 7 + attempt * 53) % 800)] + tool[2:]


def interactive_bom(board: Path, out: Path) -> Path | None:
    """The board's interactive HTML BOM (InteractiveHtmlBom) for whoever solders by hand: both
    sides, every part's pads highlighted by its BOM line, the nets and tracks. None: not installed."""
    tool = ibom_tool()
    if tool is None:
        return None
    args = ["--no-browser", "--dest-dir", str(out.resolve()), "--name-format", "%f-ibom", "--include-tracks",
            "--include-nets", str(board.resolve())]
    for attempt in range(3):
        run = subprocess.run(_virtual_screen(tool, attempt) + args, capture_output=True, text=True, timeout=600)
        if run.returncode == 0 or "DISPLAY" not in run.stdout + run.stderr:
            break  # done, or failed for a reason of its own: a virtual screen taken is tried again
    if run.returncode != 0:
        raise RuntimeError("InteractiveHtmlBom failed on %s: %s" % (board, (run.stdout + run.stderr).strip()[-2000:]))
    return out / (board.stem + "-ibom.html")


def write(out: Path, kicad: bool = True) -> tuple[list[Path], dict | None]:
    """Write the folder; with kicad, check it and export (None: KiCad not installed)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in design_files().items():
        (out / name).write_text(text)
        written.append(out / name)
    exe = kicad_python() if kicad else None
    if exe is None:
        return written, None
    fab = out / FAB
    if fab.exists():
        shutil.rmtree(fab)
    fab.mkdir()
    verdict = check(out / (kicad_pcb.NAME + ".kicad_pcb"), fab, exe)
    written += pictures(fab, out)
    written += sorted(fab.iterdir())
    ibom = interactive_bom(out / (kicad_pcb.NAME + ".kicad_pcb"), out)
    if ibom:
        written.append(ibom)
    return written, verdict


def summary(verdict: dict) -> str:
    return "KiCad %s DRC: %d errors, %d unconnected" % (verdict["kicad"], verdict["violations"],
                                                        verdict["unconnected"])


def relative(p: Path) -> str:
    try:
        return os.path.relpath(p)
    except ValueError:
        return str(p)
