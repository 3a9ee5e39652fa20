"""A key per name (issue 19): two people at one machine each keep their own player key (client/player_key.py)."""

from __future__ import annotations

from board99.client import player_key


def test_each_name_has_its_own_key_file_and_the_windows_own_key_is_found_by_its_name(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARD99_CONFIG", str(tmp_path / "settings.toml"))
    own = player_key.load_or_create(player_key.key_path(None))
    ann = player_key.load_or_create(player_key.key_path("Ann"))
    bob = player_key.load_or_create(player_key.key_path("Bob"))
    assert len({own, ann, bob}) == 3
    assert player_key.key_path("ANN") == player_key.key_path("Ann") == tmp_path / "players" / "ann.key"
    assert player_key.load_or_create(player_key.key_path("ann")) == ann  # found again, not made anew
    assert oct(player_key.key_path("Bob").stat().st_mode & 0o777) == "0o600"
    # The window's own key, once the server accepted it as Cy, is Cy's: --as Cy finds it.
    player_key.note_name(player_key.key_path(None), "Cy")
    assert player_key.noted_name() == "Cy" and player_key.key_path("cy") == tmp_path / "player.key"
    # Only player.key's name is noted: a per-name key never overwrites it.
    player_key.note_name(player_key.key_path("Bob"), "Bob")
    assert player_key.noted_name() == "Cy"
    # Names that differ only in characters a file name cannot hold still get different files.
    assert player_key.key_path("Ann B") != player_key.key_path("Ann_B") != player_key.key_path("AnnB")
