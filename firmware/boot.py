# Runs once before USB starts: enable the protocol's data port beside the REPL console.
from pegfw.hardware import boot

boot()
