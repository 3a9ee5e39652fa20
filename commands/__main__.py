"""`python -m board99.commands ...`: the `board99` command without its installed script."""

import sys

from .parser import main

sys.exit(main())
