"""The hardware objects the main loop uses, built once by pegfw.hardware (which then leaves the
heap). Tests and the bench hand the App plain stand-ins with the same attributes."""


class Devices:
    def __init__(self, sensors, button, pixels, serial, nvm, watchdog, event, ticks_ms, reset=None):
        self.sensors = sensors      # keypad.Keys or ShiftRegisterKeys: one key per hole
        self.button = button        # keypad.Keys: the hint button
        self.pixels = pixels        # neopixel.NeoPixel, brightness 1.0 (the limiter scales)
        self.serial = serial        # usb_cdc.data (None if boot.py did not enable it)
        self.nvm = nvm              # microcontroller.nvm
        self.watchdog = watchdog    # microcontroller.watchdog, armed; None where there is none
        self.event = event          # one keypad.Event reused for every read: no allocation
        self.ticks_ms = ticks_ms    # supervisor.ticks_ms
        self.reset = reset          # microcontroller.reset (a hard reset: boot.py runs again), or None
        self.debounce_ms = None     # (least, most) the button's debounce delays its release, if known
        self.console = None         # usb_cdc.console, if the REPL's port is enabled
        self.piezo = None           # pwmio.PWMOut (variable frequency) on PEGBOARD_PIEZO_PIN, if fitted

    def show(self, frame):
        px = self.pixels
        for i in range(len(frame)):
            px[i] = frame[i]
        px.show()

    def console_idle(self):
        """Whether a short console line cannot hold the loop: CircuitPython's console write waits,
        while a host holds the REPL port open, until every byte has gone into the USB FIFO
        (supervisor/shared/serial.c, serial_write_substring), so print only into an empty FIFO."""
        c = self.console
        return c is None or not c.connected or c.out_waiting == 0

    def feed(self):
        if self.watchdog is not None:
            self.watchdog.feed()
