"""Everything the server keeps: the records it writes and reads, and the two databases behind them
(``sqlite/`` embedded, ``postgres/`` for a cluster).
"""
