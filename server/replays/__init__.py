"""Stored matches read back: a match as a SCENARIOS.md scenario (``sprtec export``, ``GetReplay``)
and the proof of a data directory (``sprtec verify``).
"""
