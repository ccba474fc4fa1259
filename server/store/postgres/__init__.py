"""The shared store of a cluster on PostgreSQL: the SQLite store's operations for many nodes.
"""
