"""``python -m sprtec`` is the same as the ``sprtec`` command."""

from sprtec.cli import main

raise SystemExit(main())
