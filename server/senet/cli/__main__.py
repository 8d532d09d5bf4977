"""``python -m senet.cli``: the ``senet`` command without an installed script."""

from senet.cli import main

raise SystemExit(main())
