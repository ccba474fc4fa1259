"""The embedded store: one SQLite file, its schema and migrations, its one writer thread.
"""
