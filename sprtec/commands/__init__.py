"""One module per ``sprtec`` subcommand, each with ``add_arguments(parser)`` and ``run(args) -> int``."""
