"""Save replay without a screen: where the file goes, what the results say, and the answers the saver takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from client.match.replay_saver import ReplaySaver, save
from client.player import results_model
from shared.protocol import Error, GetReplay, Replay

SCENARIO = '{"format": "sprtec-scenario/1", "position": {}, "actions": []}'


def test_a_replay_goes_to_sprtec_replays_in_home(tmp_path: Path):
    """The folder is created and the scenario written as it came."""
    path = save("da8e7ecba880", SCENARIO, home=tmp_path / "home", here=tmp_path / "here")
    assert path == tmp_path / "home" / "sprtec-replays" / "da8e7ecba880.json"
    assert path.read_text(encoding="utf-8") == SCENARIO


def test_an_unwritable_home_falls_back_to_the_current_directory(tmp_path: Path):
    """A home where the folder cannot be made (a file, not a directory): the file lands in the current directory."""
    home, here = tmp_path / "home", tmp_path / "here"
    home.write_text("not a directory")
    here.mkdir()
    assert save("da8e7ecba880", SCENARIO, home=home, here=here) == here / "da8e7ecba880.json"
    assert (here / "da8e7ecba880.json").read_text(encoding="utf-8") == SCENARIO


def test_a_match_id_that_is_not_a_file_name_is_refused(tmp_path: Path):
    """A server's id with a path in it is not written anywhere."""
    with pytest.raises(OSError):
        save("../evil", SCENARIO, home=tmp_path, here=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_saver_asks_saves_reports_and_tells_refusals(tmp_path: Path):
    """GetReplay is sent; the matching Replay is saved and reported; an Error about GetReplay is shown plainly."""
    sent: list[object] = []
    lines: list[str] = []
    def send(message: object) -> bool:
        sent.append(message)
        return True

    saver = ReplaySaver(send, home=tmp_path, here=tmp_path, report=lines.append)
    saver.ask("da8e7ecba880")
    assert sent == [GetReplay("da8e7ecba880")] and saver.status.startswith("Asking")
    assert not saver.take(Replay("000000000000", SCENARIO))  # not the one asked for
    assert saver.take(Replay("da8e7ecba880", SCENARIO))
    path = tmp_path / "sprtec-replays" / "da8e7ecba880.json"
    assert lines[-1] == f"Saved to {path} — replay: sprtec replay {path}"
    assert saver.status == "Saved to ~/sprtec-replays/da8e7ecba880.json — replay: sprtec replay " \
                           "~/sprtec-replays/da8e7ecba880.json"
    saver.ask("da8e7ecba880")
    assert saver.take(Error("NO_MATCH", "no match has the id", "GetReplay"))
    assert saver.status == "Replay not saved: no match has the id"
    offline = ReplaySaver(lambda m: False, report=lines.append)
    offline.ask("da8e7ecba880")
    assert offline.status.startswith("Not connected")


def test_coaches_and_spectators_get_save_replay_and_the_saved_line():
    """Save replay is offered to a coach and to a spectator; the saved line is passed through."""
    names = {"home": "Jana", "away": "bot"}
    coach = results_model.build(0, 0, None, "DRAW", "home", names, saved="Saved to x")
    spectator = results_model.build(0, 0, None, "DRAW", None, names)
    assert ("Save replay", "save") in coach.options and ("Save replay", "save") in spectator.options
    assert coach.saved == "Saved to x" and spectator.saved == "" and coach.score == "Jana  0 : 0  bot"


def test_my_replays_lists_a_saved_match_with_its_names_and_final_score(tmp_path: Path):
    """The score of the match is kept beside its replay with the names; My replays reads "Jana 3:1 Ola"."""
    from client.match import replay_library

    saver = ReplaySaver(lambda message: True, home=tmp_path, here=tmp_path, report=lambda line: None)
    saver.ask("da8e7ecba880", {"home": "Jana", "away": "Ola"}, (3, 1))
    assert saver.take(Replay("da8e7ecba880", SCENARIO))
    (listed,) = replay_library.find(tmp_path, tmp_path)
    assert listed.score == (3, 1) and listed.label().startswith("Jana 3:1 Ola")
    assert replay_library.read(listed.path)[1] == {"home": "Jana", "away": "Ola"}
