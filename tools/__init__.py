"""Generators of the repository's documents (docs/PROTOCOL.md, docs/settings.md, docs/rules-coverage.md).

Why a package outside the runtime ones: they read ``docs/`` and ``tests/`` of a checkout, which an installed
sprtec does not have, so they live beside the code, are not installed (pyproject's ``packages.find``) and
nothing under shared/, server/, client/ or sprtec/ imports them. Run them from the repository root::

    python -m tools.docgen docs/PROTOCOL.md     # rewrite the generated sections of the protocol document
    python -m tools.rulesets_doc [--check]      # docs/settings.md
    python -m tools.coverage [--check]          # docs/rules-coverage.md
"""
