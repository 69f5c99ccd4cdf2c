"""The piezo's tunes (PEGBOARD_PIEZO_PIN), played a note at a time as the main loop passes: a
note starts by setting the PWM's frequency and duty and ends when a later pass finds its time
up, so nothing waits. Loaded only on a board with the part. Volume is the duty cycle (a piezo
is loudest at 50 %); quiet hours need the time of day, which the board learns from the host
(the `sound` request's `clock`): until then they cannot apply, and the board plays."""

from pegfw.clock import ticks_diff

# name -> notes, (frequency in Hz, ms); frequency 0 is a rest
TUNES = {
    "click": ((4000, 15),),                                          # a legal move
    "buzz": ((180, 350),),                                           # an illegal placement
    "win": ((1047, 110), (1319, 110), (1568, 110), (2093, 330)),     # C6 E6 G6 C7, up
    "lost": ((784, 180), (659, 180), (523, 180), (392, 420)),        # G5 E5 C5 G4, down
    "best": ((2637, 50), (0, 40), (3136, 50), (0, 40), (4186, 120)),  # E7 G7 C8: a chirp
}
MAX_QUEUED = 12  # notes waiting: a flurry of buzzes never holds the piezo for long
MIN_MS = 60000
DUTY_PER_PCT = 327  # of 65535: volume 100 is a 50 % duty, a piezo's loudest


class Player:
    def __init__(self, pwm, ticks_ms, volume, quiet):
        self.pwm = pwm            # pwmio.PWMOut, variable_frequency=True, silent (duty 0)
        self.ticks_ms = ticks_ms  # supervisor.ticks_ms: a note is timed from when it starts
        self.volume = volume      # 0..100
        self.quiet = quiet        # (from hour, to hour) or None
        self.notes = ()  # type: tuple
        self.k = 0
        self.until = None         # the note playing ends then (ticks), or None: silent
        self.clock = None         # [ticks, minutes past midnight] when the host told the time

    def minutes(self, now):
        """Minutes past midnight by the host's clock, or None if the board was never told; the
        anchor moves on each hour, so ticks_diff's range (3 days) is never outrun."""
        c = self.clock
        if c is None:
            return None
        gone = ticks_diff(now, c[0]) // MIN_MS
        if gone > 60:
            c[0] += gone * MIN_MS
            c[1] = (c[1] + gone) % 1440
            gone = 0
        return (c[1] + gone) % 1440

    def silent(self, now):
        """Volume 0, or in the quiet hours by the host's clock."""
        q = self.quiet
        m = self.minutes(now) if q else None
        if m is None:
            return self.volume == 0
        h = m // 60
        return self.volume == 0 or (q[0] <= h < q[1] if q[0] < q[1] else h >= q[0] or h < q[1])

    def play(self, name, now):
        """Queue tune `name` after what plays; False when the board is silent or the queue full."""
        left = self.notes[self.k:] if self.until is not None else ()
        if self.silent(now) or len(left) > MAX_QUEUED:
            return False
        self.notes, self.k = left + TUNES[name], 0
        if self.until is None:
            self.poll(None)
        return True

    def poll(self, now):
        """The next note when this one's time is up (now None: the first); silence after the last."""
        if now is not None:
            if self.until is None or ticks_diff(now, self.until) < 0:
                return
            self.k += 1
        if self.k < len(self.notes):
            f, ms = self.notes[self.k]
            if f:
                self.pwm.frequency = f
            self.pwm.duty_cycle = self.volume * DUTY_PER_PCT if f else 0
            self.until = self.ticks_ms() + ms  # (not the pass's start: a note never ends early)
        else:
            self.pwm.duty_cycle = 0
            self.until = None
            self.notes, self.k = (), 0
