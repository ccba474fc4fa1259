"""Tests of the referee: one or more per rule id, named after it."""
