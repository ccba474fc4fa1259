"""The pure team-league engine of TOURNAMENT.md "Team competitions": files, team matches, scores and the table.

A league is its file (``model.League``, read by ``reading`` with the contract's checks in the contract's
order (``checks``), written canonically by ``writing``). ``schedule`` makes the rounds of a team match from
its two line-ups; ``score`` counts a fixture's team score and points; ``table`` ranks the teams and
``players`` lists each player's games. Everything is a pure function of the file.
"""
