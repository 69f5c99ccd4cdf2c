"""Run by a Python that has KiCad's own module (pcbnew), never imported by pegboard: fill the
board's ground pours, run KiCad's DRC, and plot what a fab takes (Gerbers, drill files) and a
picture of each side. Usage: python kicad_run.py BOARD.kicad_pcb OUT_DIR [--check-only]. Prints one JSON line:
the DRC's counts and the files written."""

import json
import os
import re
import sys

import pcbnew  # type: ignore[import-not-found]  # KiCad's own module, in KiCad's Python

# the layers a fab takes; KiCad names each file with its Protel extension (.gtl, .gbl, ...)
GERBERS = ("F.Cu", "B.Cu", "F.Mask", "B.Mask", "F.Paste", "B.Paste", "F.SilkS", "B.SilkS", "Edge.Cuts")
PICTURES = (("top", ("F.Cu", "F.Mask", "F.SilkS", "Edge.Cuts")), ("bottom", ("B.Cu", "B.Mask", "B.SilkS", "Edge.Cuts")))


def drc(board, out_dir):
    path = os.path.join(out_dir, "drc.rpt")
    pcbnew.WriteDRCReport(board, path, pcbnew.EDA_UNITS_MILLIMETRES, True)
    with open(path) as f:
        text = f.read()
    os.remove(path)
    found = dict((what, int(n)) for n, what in re.findall(r"\*\* Found (\d+) (DRC violations|unconnected pads)", text))
    return found, text


def plot(board, out_dir):
    ctl = pcbnew.PLOT_CONTROLLER(board)
    opts = ctl.GetPlotOptions()
    opts.SetOutputDirectory(out_dir)
    opts.SetPlotFrameRef(False)
    opts.SetUseGerberProtelExtensions(True)
    opts.SetCreateGerberJobFile(False)
    opts.SetUseGerberX2format(True)
    opts.SetIncludeGerberNetlistInfo(False)
    opts.SetSubtractMaskFromSilk(True)
    opts.SetUseAuxOrigin(False)
    opts.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)  # no drill marks on the silk
    written = []
    for layer in GERBERS:
        ctl.SetLayer(board.GetLayerID(layer))
        ctl.OpenPlotfile(layer.replace(".", "_"), pcbnew.PLOT_FORMAT_GERBER, layer)
        ctl.PlotLayer()
        written.append(ctl.GetPlotFileName())
    ctl.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(out_dir, True, False)
    written += [os.path.join(out_dir, f) for f in sorted(os.listdir(out_dir)) if f.endswith(".drl")]
    for side, layers in PICTURES:
        opts.SetMirror(side == "bottom")  # the bottom as seen from below
        for layer in layers:
            ctl.SetLayer(board.GetLayerID(layer))
            ctl.OpenPlotfile("%s-%s" % (side, layer.replace(".", "_")), pcbnew.PLOT_FORMAT_SVG, side)
            ctl.PlotLayer()
            written.append(ctl.GetPlotFileName())
        ctl.ClosePlot()
    return [os.path.basename(w) for w in written]


def main():
    path, out_dir = sys.argv[1], sys.argv[2]
    board = pcbnew.LoadBoard(path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    found, text = drc(board, out_dir)
    rules = board.GetDesignSettings()
    files = plot(board, out_dir) if "--check-only" not in sys.argv else []
    print(json.dumps({"violations": found.get("DRC violations"), "unconnected": found.get("unconnected pads"),
                      "min_clearance_mm": rules.m_MinClearance / 1e6, "kicad": pcbnew.Version(),
                      "report": text, "files": files}))


if __name__ == "__main__":
    main()
