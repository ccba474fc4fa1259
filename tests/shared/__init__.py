"""Tests of the pure core, ``shared/``."""
