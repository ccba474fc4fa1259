"""The pure tournament engine of TOURNAMENT.md: files, standings, pairings and discipline.

A tournament is its file (``model.Tournament``, read by ``reading``, written canonically by ``writing``)
and, like a match, a fold of events (``events``). ``course.follow`` checks a file in the order things
happened; ``standings`` ranks a stage in its system (Swiss, round robin, knockout); ``pairing`` makes the
next round. ``ranking`` ranks every player of the tournament across its stages (with ``categories`` and the
Czech Cup points of ``cup``), and ``season`` sums a Czech Cup season's files. Everything is a pure function
of the file, its ``seed`` driving every draw (``draws``).
"""
