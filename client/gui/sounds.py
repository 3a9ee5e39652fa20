"""The table's sounds (peg placed, card drawn, penalty, win, your turn, the clock's tick) with volume and mute."""

from __future__ import annotations

import logging

import arcade

from .assets import asset

NAMES = ("peg", "draw", "penalty", "win", "turn", "tick")
log = logging.getLogger(__name__)


class Sounds:
    """Loads the sounds once; ``play`` does nothing while muted or where there is no audio device."""

    def __init__(self, muted: bool = False, volume: float = 0.8) -> None:
        self.muted = muted
        #: 0.0-1.0, passed to every play (the view copies the player's setting).
        self.volume = volume
        #: Every sound asked for, muted or not, newest last (the tests read it).
        self.asked: list[str] = []
        self._sounds: dict[str, arcade.Sound] = {}
        for name in NAMES:
            try:
                self._sounds[name] = arcade.load_sound(asset(f"{name}.wav"))
            except Exception as exc:  # no audio driver on this machine: play silently
                log.info("sound %s not loaded: %s", name, exc)

    def play(self, name: str) -> None:
        """Play one of NAMES unless muted."""
        self.asked.append(name)
        sound = self._sounds.get(name)
        if self.muted or sound is None:
            return
        try:
            sound.play(volume=max(0.0, min(1.0, self.volume)))
        except Exception as exc:  # a lost audio device must not stop the game
            log.info("sound %s failed: %s", name, exc)
