"""Tournaments run by the server: an event log per tournament, folded by the pure engine (``shared.tournament``).

Why a package of small modules: a tournament touches everything a server does - requests from the organiser and
the players, the lobby's tables, the lifecycle bus's results, the store, pushes to watchers, recovery after a
crash - and each of those is one module here: ``log`` (the events and their JSON), ``state`` (the pure fold of
the log), ``tournament_core`` (a running tournament's decisions, pure, with the time as an input), ``state_snapshot``
(the state as one text, every 50 events), ``credentials`` (the organiser secret and entry codes), ``creation`` (a new
tournament from a file or fields), ``tournament_records`` (the store's statements and reads), ``results`` (a finished
match as a result), ``tables`` (opening and closing a round's rooms through the lobby), ``views`` (the protocol's view
of a tournament), ``service`` (the cores' asyncio shell: locks, timers, watchers), ``handlers`` (the requests),
``resume`` (after a restart) and ``export`` (a tournament out of a data directory).
"""
