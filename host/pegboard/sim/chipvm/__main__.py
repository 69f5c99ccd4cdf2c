from pegboard.sim.chipvm import main

main()
