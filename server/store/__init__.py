"""Everything the server keeps: the port the rest of the server sees (``store_port``), the one writer's pure
group-commit machine and its two drivers, the records it writes and reads, and the two databases behind them
(``sqlite/`` embedded, ``postgres/`` for a cluster).
"""
