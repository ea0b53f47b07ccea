"""``python -m promote.verify POLICY [--cases N | --all]``."""
import sys

from .._verify import main

sys.exit(main())
