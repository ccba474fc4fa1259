"""Tournaments run by the server: an event log per tournament, folded by the pure engine (``shared.tournament``).

Why a package of small modules: a tournament touches everything a server does - requests from the organiser and
the players, the lobby's tables, the lifecycle bus's results, the store, pushes to watchers, recovery after a
crash - and each of those is one module here: ``log`` (the events and their JSON), ``state`` (the pure fold of
the log), ``credentials`` (the organiser secret and entry codes), ``creation`` (a new tournament from a file or
fields), ``records`` (the store's statements and reads), ``results`` (a finished match as a result), ``tables``
(opening and closing a table's room), ``views`` (the protocol's view of a tournament), ``watchers`` (coalesced
pushes), ``service`` (the running tournaments), ``handlers`` (the requests), ``recovery`` (after a restart) and
``export`` (a tournament out of a data directory).
"""
