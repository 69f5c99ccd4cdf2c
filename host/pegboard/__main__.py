import sys

from pegboard.commands.cli import main

sys.exit(main())
