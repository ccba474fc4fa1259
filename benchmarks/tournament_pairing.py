"""``sprtec bench tournament``: what pairing a big Swiss round costs late in a tournament (target under 1 s), what the
server's CPU spends starting a 200-player round and opening its 100 tables (``tournament_round``: under 100 ms, against
its floor), and a live tournament's tables on a server (``tournament_live``: 32 at once, p99 flick -> MovePlayed under
100 ms).

Why late: the Swiss matching gets harder as players meet, because the pairs that are still allowed spread
further down the standings (``shared.tournament.pairing_swiss``), so the benchmark first plays a 200-player
Swiss (seven rounds by the contract's table) through six rounds with plausible seeded results, then times
the pairing of round seven: ``pair`` on the tournament value (checking the file, the standings, the bye and
the matching) and the whole command's work from the file's bytes. CPU time, medians of several runs.

The results are drawn from the seed (``shared.draws``): each side scores a Poisson number of goals whose
mean grows with its rating advantage, so there are draws, upsets and a realistic spread of points.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from shared.draws import draw
from shared.tournament.events import ApplyPairing, RecordResult, apply
from shared.tournament.model import Player, Stage, Tournament
from shared.tournament.pairing import pair
from shared.tournament.reading import parse
from shared.tournament.writing import dump_bytes

HELP = ("Median CPU time of pairing a 200-player Swiss round late in a tournament (target under 1 s), the server's CPU "
        "from a 200-player round's StartRound to its 100 tables open (target under 100 ms, against its floor), then a "
        "64-player tournament's 32 tables playing at once: p99 flick -> MovePlayed (target under 100 ms).")
TARGET_S = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--players, --played, --repeat, --seed, --part, and the round and live parts' options."""
    from benchmarks.tournament_live import add_arguments as live_arguments
    from benchmarks.tournament_round import add_arguments as round_arguments

    parser.add_argument("--players", type=int, default=200, help="players in the Swiss (default 200)")
    parser.add_argument("--played", type=int, default=6, help="rounds played before the timed one (default 6)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; medians are reported (default 5)")
    parser.add_argument("--seed", type=int, default=2026, help="the tournament's seed")
    parser.add_argument("--part", choices=("pairing", "round", "live", "all"), default="all",
                        help="the pairing's CPU time, a round's start on a server, the live tournament, or all "
                             "(default)")
    round_arguments(parser)
    live_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """The pairing part, the round part (``tournament_round``), then the live part (``tournament_live``)."""
    if args.part in ("pairing", "all"):
        pairing_part(args)
    if args.part in ("round", "all"):
        from benchmarks.tournament_round import run_round

        run_round(args)
    if args.part in ("live", "all"):
        import asyncio

        from benchmarks.tournament_live import live

        asyncio.run(live(args))
    return 0


def pairing_part(args: argparse.Namespace) -> None:
    """Build the tournament, then time its next pairing."""
    start = time.process_time()
    t = simulated_swiss(args.players, args.played, args.seed)
    built = time.process_time() - start
    data = dump_bytes(t)
    print(f"{args.players} players, {args.played} rounds played (built in {built:.1f} s CPU), "
          f"file of {len(data) // 1024} KiB; timing the pairing of round {args.played + 1}")
    on_value, from_bytes = [], []
    for _ in range(args.repeat):
        start = time.process_time()
        pairing = pair(t)
        on_value.append(time.process_time() - start)
        start = time.process_time()
        pair(parse(data))
        from_bytes.append(time.process_time() - start)
    median = statistics.median(on_value)
    print(f"pair(tournament): median {median * 1000:.0f} ms over {args.repeat} runs "
          f"(min {min(on_value) * 1000:.0f}, max {max(on_value) * 1000:.0f}); {len(pairing.matches)} matches, "
          f"bye {', '.join(pairing.byes) or 'none'}")
    print(f"read the file and pair: median {statistics.median(from_bytes) * 1000:.0f} ms")
    verdict = "within" if median < TARGET_S else "ABOVE"
    print(f"{verdict} the {TARGET_S:.0f} s target")


def simulated_players(count: int, seed: int) -> tuple[Player, ...]:
    """``count`` entrants with ratings spread over 1200-2000."""
    return tuple(
        Player(id=f"p{i:03d}", name=f"Player {i}", rating=1200 + int(draw(seed, "bench-rating", i) * 800))
        for i in range(1, count + 1)
    )


def simulated_score(seed: int, stage: int, number: int, home: Player, away: Player) -> tuple[int, int]:
    """A plausible score: Poisson goals around 2.2 per side, shifted by the rating difference."""
    shift = ((home.rating or 1500) - (away.rating or 1500)) / 400
    return (
        _poisson(2.2 * math.exp(shift / 2), draw(seed, "bench-goals", stage, number, home.id, away.id, "home")),
        _poisson(2.2 * math.exp(-shift / 2), draw(seed, "bench-goals", stage, number, home.id, away.id, "away")),
    )


def play_round(t: Tournament) -> Tournament:
    """Pair the next round, apply it, and give every match a simulated score (preset walkovers stay)."""
    pairing = pair(t)
    t = apply(t, ApplyPairing(pairing=pairing))
    for m in pairing.matches:
        if m.walkover is None:
            score = simulated_score(t.seed, pairing.stage, pairing.round, t.player(m.home), t.player(m.away))
            t = apply(t, RecordResult(stage=pairing.stage, round=pairing.round, home=m.home, away=m.away, score=score))
    return t


def simulated_swiss(players: int, played: int, seed: int) -> Tournament:
    """A one-stage Swiss of ``players`` after ``played`` rounds of simulated results."""
    t = Tournament(name="sprtec bench", seed=seed, players=simulated_players(players, seed), stages=(Stage(),))
    for _ in range(played):
        t = play_round(t)
    return t


def _poisson(mean: float, u: float) -> int:
    """The Poisson(mean) value at quantile ``u`` (inverse CDF), capped at 15 goals."""
    goals, term = 0, math.exp(-mean)
    total = term
    while u > total and goals < 15:
        goals += 1
        term *= mean / goals
        total += term
    return goals
