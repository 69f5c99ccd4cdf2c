from pegboard.sim.thumbvm import main
main()
