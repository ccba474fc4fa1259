"""The authoritative asyncio server: the thin edge around the pure core."""
