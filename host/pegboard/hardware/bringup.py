"""What `pegboard selftest` makes of the sensor readout: each change in words as it comes, and at
the end the likely cause of what did not happen, in the words of hardware/README.md,
"Troubleshooting" (the table there lists the same causes and how to check each one).

Pure bookkeeping, no board: the command feeds it the pegs the board reports (the `selftest` reply,
`lift`/`place` events, `sensors` and `new_game` snapshots) and prints what it returns."""

from __future__ import annotations

SENSOR_CHECK = ("check its sensor: the pin order (a TO-92 and a SOT-23 DRV5032 have different pins: "
                "hardware/README.md, \"Troubleshooting\"), 3.3 V and GND at its pins, its OUT wire to the input "
                "your board file gives that hole (with the 74HC165, its 10 k pull-up), its marked face towards the "
                "magnet, and the magnet (an omnipolar DRV5032 switches with either pole; a unipolar version with "
                "one only)")
STUCK = ("its output is held low: OUT touching GND (a solder bridge), the sensor's pins in the wrong order, "
         "or a magnet left near it")
SHARED = ("if you did move pegs, look at what every sensor shares: 3.3 V and GND to the sensors, "
          "PEGBOARD_SENSOR_ACTIVE (\"low\" for the DRV5032), and with the 74HC165 option its clock, latch "
          "and data wires and CLK INH (pin 15) to GND")


def holes_text(holes: list[int]) -> str:
    """"hole 7" or "holes 3, 5 and 9"."""
    if len(holes) == 1:
        return "hole %d" % holes[0]
    return "holes %s and %d" % (", ".join(str(h) for h in holes[:-1]), holes[-1])


class SensorLog:
    """The sensors as the board reported them since the self-test began."""

    def __init__(self, holes: int, pegs: list[int]) -> None:
        self.holes = holes
        self.now = set(pegs)
        self.changes: dict[int, int] = {}  # hole -> how many times it changed
        self.seen_empty = set(range(1, holes + 1)) - self.now
        self.placed: list[int] = []  # holes in the order their peg went in, each once, after it read empty

    def take(self, pegs: list[int] | set[int]) -> list[str]:
        """The board reads `pegs` now: each change, in words."""
        new = set(pegs)
        out = []
        for h in sorted(new ^ self.now):
            self.changes[h] = self.changes.get(h, 0) + 1
            if h in new:
                out.append("hole %d: peg in" % h)
                if h in self.seen_empty and h not in self.placed:
                    self.placed.append(h)
            else:
                out.append("hole %d: peg out" % h)
                self.seen_empty.add(h)
        self.now = new
        return out

    def change(self, hole: int, placed: bool) -> list[str]:
        """One sensor changed (a `place` or `lift` event)."""
        return self.take(self.now | {hole} if placed else self.now - {hole})

    @property
    def empty_seen(self) -> bool:
        """Whether the board has read empty (every hole at least once without a peg)."""
        return len(self.seen_empty) == self.holes

    # -- the verdicts: (problems named, lines) ------------------------------------------------
    def free_report(self) -> tuple[int, list[str]]:
        """After a free readout (lift and place every peg): the holes that never changed."""
        if not self.changes:
            return 0, ["no sensor changed while the self-test ran. " + SHARED]
        quiet = [h for h in range(1, self.holes + 1) if h not in self.changes]
        if not quiet:
            return 0, ["every hole's sensor changed at least once: all %d sensors answer" % self.holes]
        out = []
        full = [h for h in quiet if h in self.now]
        empty = [h for h in quiet if h not in self.now]
        if empty:
            out.append("%s never changed while the self-test ran (no peg read): if you placed and lifted %s peg, %s"
                       % (holes_text(empty), "its" if len(empty) == 1 else "each one's", SENSOR_CHECK))
        if full:
            out.append("%s never changed while the self-test ran (a peg read all along): if you lifted %s peg, %s"
                       % (holes_text(full), "its" if len(full) == 1 else "each one's", STUCK))
        return len(quiet), out

    def order_report(self) -> tuple[int, list[str]]:
        """After pegs were placed in hole order 1, 2, 3 ...: swapped and misrouted holes, holes that
        never reported a peg, holes that never read empty. The k-th peg placed is taken to be in the
        k-th lowest hole the board reported: a hole that never answers then does not shift the rest."""
        out = []
        problems = 0
        physical = sorted(self.placed)
        wrong = {p: h for p, h in zip(physical, self.placed, strict=True) if p != h}
        for a in sorted(wrong):
            b = wrong[a]
            if wrong.get(b) == a:
                if a < b:
                    problems += 1
                    out.append("holes %d and %d reported swapped: the peg placed in hole %d was reported as hole %d "
                               "and the other way round: their sensor wires are crossed, or the board file lists "
                               "their pins the other way round" % (a, b, a, b))
            else:
                problems += 1
                out.append("the peg placed in hole %d was reported as hole %d: hole %d's sensor is wired to the input "
                           "the board file gives hole %d" % (a, b, a, b))
        silent = [h for h in range(1, self.holes + 1) if h not in self.placed and h in self.seen_empty]
        stuck = [h for h in range(1, self.holes + 1) if h not in self.seen_empty]
        if silent:
            problems += len(silent)
            out.append("%s never reported a peg: if you placed %s, %s"
                       % (holes_text(silent), "it" if len(silent) == 1 else "them", SENSOR_CHECK))
        if stuck:
            problems += len(stuck)
            out.append("%s never read empty: with every peg out, %s"
                       % (holes_text(stuck), STUCK))
        if not problems:
            out.append("every hole reported its own number, in order: the sensors and their wiring match the "
                       "board file")
        return problems, out

    def hole_report(self, hole: int) -> tuple[int, list[str]]:
        """After the bring-up of one hole's module."""
        out = []
        problems = 0
        n = self.changes.get(hole, 0)
        if n:
            out.append("hole %d's sensor changed %d time%s: it answers" % (hole, n, "" if n == 1 else "s"))
        else:
            problems += 1
            if hole in self.now:
                out.append("hole %d read a peg the whole time: if no magnet was near it, %s" % (hole, STUCK))
            else:
                out.append("hole %d never changed: if you held a peg's magnet over it, %s" % (hole, SENSOR_CHECK))
        others = sorted(h for h in self.changes if h != hole)
        if others:
            problems += 1
            out.append("%s changed too: if this module is the only one wired, its sensor's OUT goes to the input "
                       "of %s, not of hole %d" % (holes_text(others), holes_text(others), hole))
        return problems, out
