# pegboard firmware entry point (CircuitPython runs this after boot.py).
from pegfw.startup import main

main()
