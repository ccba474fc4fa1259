"""The pure, deterministic core: no sockets, no asyncio, no wall clock, no global random."""
