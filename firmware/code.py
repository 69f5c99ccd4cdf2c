# pegboard firmware entry point (CircuitPython runs this after boot.py).
from pegfw.app import main

main()
