import sys

from pegboard.cli import main

sys.exit(main())
