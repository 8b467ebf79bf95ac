"""``python -m training``: the training commands (``training/cli.py``)."""

from training.cli import main

raise SystemExit(main())
