import sys

from rallye.cli import main

sys.exit(main())
