"""The ``sprtec`` command: one entry point whose subcommands reach the server, the client and the core."""
