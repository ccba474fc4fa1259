"""The shared store of a cluster on PostgreSQL: the store's port for many nodes, fenced.
"""
