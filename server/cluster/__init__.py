"""A node of a cluster: leases on Redis, takeover of a dead node's rooms, MOVED, relayed spectators.
"""
