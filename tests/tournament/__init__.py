"""Tests of the tournament engine (shared/tournament) and of `sprtec tournament`."""
