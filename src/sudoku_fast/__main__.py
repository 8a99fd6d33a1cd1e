"""`python -m sudoku_fast`: the command line."""

import sys

from .cli import main

sys.exit(main())
