# pegboard firmware entry point (CircuitPython runs this after boot.py).
from pegfw import unload
from pegfw.startup import start

app = start()  # a bad setting never returns: it blinks its code instead
del start
unload("pegfw.startup")  # start-up code is done: its heap goes to the game
app.run()
