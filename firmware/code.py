# pegboard firmware entry point (CircuitPython runs this after boot.py).
from pegfw.ondemand import unload
from pegfw.hardware import first_light

early = first_light()  # the pixels glow before the big modules are compiled: the board is alive
del first_light
from pegfw.startup import start  # noqa: E402

app = start(early)  # a bad setting never returns: it blinks its code instead
del start, early
unload("pegfw.startup")  # start-up code is done: its heap goes to the game
app.run()
