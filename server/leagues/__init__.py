"""The team leagues a server runs (TOURNAMENT.md "Team competitions"): each one's event log, its pure fold and core,
the asyncio service around it, the requests, the updates its watchers see, recovery and the export."""
