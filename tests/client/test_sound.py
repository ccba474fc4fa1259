"""Sound: the synthesised cues are short and identical bytes every time; the knocks found in a move's keyframes
match the physics' contacts and are as loud as their impulse; the siren and the horn are never drowned."""

from __future__ import annotations

import io
import wave

from client.common import sound_synth
from client.common.knocks import knocks
from client.common.sound import EFFECTS_CAP, Sounds
from client.match import samples
from shared.events import Contact
from shared.match import apply_action, settings_of
from shared.protocol.trajectory import Trajectory


def test_every_cue_is_short_and_synthesised_the_same_way_each_time():
    """Each cue is a mono WAV under two seconds, and synthesising it twice gives the same bytes."""
    for cue in sound_synth.CUES:
        data = sound_synth.synthesise(cue)
        assert data == sound_synth.synthesise(cue)
        with wave.open(io.BytesIO(data)) as w:
            assert w.getnchannels() == 1 and w.getnframes() / w.getframerate() < 2.0


def _moves(count: int):
    """Real moves of the sample player: (position before, flick, result)."""
    position = samples.new_match()
    for _ in range(count):
        flick = samples.toward_puck(position, position.to_move)
        assert flick is not None
        result = apply_action(position, flick)
        yield position, flick, result
        position = result.position


def test_the_knocks_of_a_move_follow_its_contacts():
    """A flick sound first; every hard contact between two stones (or a stone and the puck) is heard within
    two frames of when the physics had it, as a knock of that kind."""
    for position, flick, result in _moves(10):
        heard = knocks(Trajectory.from_record(result.record), settings_of(position), flick.stone)
        assert heard[0].kind == "flick" and heard[0].time == 0.0
        for contact in result.record.events:
            if not isinstance(contact, Contact) or contact.impulse < 2500 or ":" in contact.a + contact.b:
                continue
            kind = "puck" if "puck" in (contact.a, contact.b) else "stone"
            at = contact.step / result.record.step_hz
            assert any(k.kind == kind and abs(k.time - at) <= 2.5 / 60 for k in heard), (contact, heard)


def test_loudness_follows_the_impulse():
    """A harder knock is louder; knocks play below the master volume's cap."""
    played = []
    sounds = Sounds(volume=1.0, effects=1.0, clock=lambda: 0.0)
    sounds._play = lambda cue, volume: played.append((cue, volume))  # listen instead of the audio device
    sounds.knock("stone", 0.2)
    sounds.knock("stone", 0.9)
    assert played[0][1] < played[1][1] <= EFFECTS_CAP


def test_knocks_keep_quiet_while_the_siren_sounds():
    """The rules' signals come first: no knock during the siren, knocks again after it."""
    now = [0.0]
    sounds = Sounds(volume=1.0, effects=1.0, clock=lambda: now[0])
    heard = []
    sounds._play = lambda cue, volume: heard.append(cue)
    sounds.play("siren")
    sounds.knock("board", 1.0)
    now[0] = 2.0
    sounds.knock("board", 1.0)
    assert heard == ["siren", "board"]
