"""The package imports and the command runs."""

from board99.cli import main


def test_arena_command_plays_games(capsys):
    assert main(["arena", "--bots", "random,random", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "20 games" in out and "95% interval" in out
