"""The board's senses as App methods: its roles in time on the lights (pegfw.motion) and its tunes
(pegfw.sound). A module of its own, as pegfw.game_events is, so that start-up compiles the App in
smaller pieces (the heap a compile needs grows with the module)."""

from pegfw import ondemand


def player(hw, cfg):
    """The piezo's player (pegfw.sound, loaded for it) on a board with one, else None."""
    piezo = getattr(hw, "piezo", None)
    if piezo is None:
        return None
    hw.feed()  # start-up compiles it: a watchdog period for that compile alone, and a fresh one after
    player = ondemand.load("pegfw.sound").Player(piezo, hw.ticks_ms, cfg.volume, cfg.quiet)
    hw.feed()
    return player


def set_roles(self, mode):
    """"motion": each role's lights follow its pattern in time (pegfw.motion, loaded for it);
    "colour": by colour alone (the module leaves the heap). `self`: the App."""
    if mode == "motion":
        self.motion = ondemand.load("pegfw.motion")
    else:
        self.motion = None
        ondemand.unload("pegfw.motion")
    self.last_frame = None


def roles(self):
    return "colour" if self.motion is None else "motion"


def chime(self, name):
    """Play tune `name` (pegfw.sound.TUNES) on a board with a piezo, and tell the host; whether
    it sounded."""
    s = self.sound
    if s is not None and s.play(name, self.hw.ticks_ms()):
        self.link.event("tune", {"name": name})
        return True
    return False
