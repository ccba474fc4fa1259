"""The rules of RULES.md as pure functions of (position, events) -> decisions; one module per chapter."""
