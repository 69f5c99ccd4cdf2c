"""Run by a Python that has KiCad's own module (pcbnew), never imported by pegboard: every footprint
on a board against KiCad's own library footprint of the same name, loaded, flipped (a bottom part)
and placed by KiCad itself. Usage: python kicad_footprint_check.py BOARD.kicad_pcb LIBRARY_DIR.
Prints one JSON line: the footprints compared and every pad that differs."""

import json
import os
import sys

import pcbnew  # type: ignore[import-not-found]  # KiCad's own module, in KiCad's Python


def _pad(p):
    """A pad as KiCad has it on the board: centre and size (nm), shape, angle, drill, layers."""
    return [p.GetPosition().x, p.GetPosition().y, p.GetSize().x, p.GetSize().y, p.GetShape(),
            p.GetOrientation() % 3600, p.GetDrillSize().x, sorted(p.GetLayerSet().Seq())]


def main():
    board = pcbnew.LoadBoard(sys.argv[1])
    library = sys.argv[2]
    compared, wrong = 0, []
    scratch = pcbnew.BOARD()
    for fp in list(board.GetFootprints()):
        fpid = fp.GetFPID()
        lib, name = str(fpid.GetLibNickname()), str(fpid.GetLibItemName())
        own = pcbnew.FootprintLoad(os.path.join(library, lib + ".pretty"), name)
        if own is None:
            wrong.append({"ref": fp.GetReference(), "what": "%s:%s is not in KiCad's library" % (lib, name)})
            continue
        scratch.Add(own)  # KiCad flips a footprint only on a board
        if fp.IsFlipped():
            own.Flip(own.GetPosition(), False)  # as KiCad's "flip" puts a part on the bottom
        own.SetOrientation(fp.GetOrientation())
        own.SetPosition(fp.GetPosition())
        mine = {p.GetNumber(): p for p in list(fp.Pads())}
        theirs = {p.GetNumber(): p for p in list(own.Pads())}
        if sorted(mine) != sorted(theirs):
            wrong.append({"ref": fp.GetReference(), "what": "pads %s, library %s" % (sorted(mine), sorted(theirs))})
            continue
        for number, p in theirs.items():
            got, want = _pad(mine[number]), _pad(p)
            if any(abs(a - b) > 1000 for a, b in zip(got[:4], want[:4], strict=True)) or got[4:] != want[4:]:
                wrong.append({"ref": fp.GetReference(), "pad": number, "board": got[:6], "library": want[:6]})
        compared += 1
    print(json.dumps({"compared": compared, "wrong": wrong}))


if __name__ == "__main__":
    main()
