"""The window's side of the game-kind seam: the lobby's model and form from board99.kinds, the screens registry,
practice through the kind, and sides asked of the kind rather than worked out.

A tiny second kind is installed for a test and taken out after it.
"""

from __future__ import annotations

import pytest

from board99 import kinds
from board99.peg_kind import PegBoard
from tests.gui_harness import step, table_info, window


class Lives(PegBoard):
    """A test-only second game: 2-5 players each alone, one mode, and an option (the peg-board rules underneath)."""

    name = "lives-test"
    title = "LIVES"
    player_counts = (2, 3, 4, 5)
    modes = ("penalty",)
    options = (kinds.OptionSpec("lives", "Lives", (1, 2, 3), 3, "tokens a player carries across rounds"),)
    standin_bot = "random"

    def check_settings(self, players, mode, options=None):
        if players not in self.player_counts:
            raise kinds.SettingsError("players", f"{players!r} players cannot play; choose 2 to 5")
        if mode not in self.modes:
            raise kinds.SettingsError("mode", f"{mode!r} is not a mode; choose penalty")
        lives = (options or {}).get("lives", 3)
        if lives not in (1, 2, 3):
            raise kinds.SettingsError("lives", "choose 1, 2 or 3")
        return kinds.Settings(players, mode, (("lives", lives),), players)

    def side_of(self, settings, seat):
        return seat


@pytest.fixture
def peg_only():
    """The registry with the peg-board game alone (Ninety-Nine taken out for the test, put back after)."""
    kinds.names()  # the installed games first
    ninety = kinds.get("ninety-nine")
    kinds.unregister("ninety-nine")
    yield
    kinds.register(ninety)


@pytest.fixture
def second_kind(peg_only):
    """The test kind installed beside the peg-board game alone, taken out again after the test."""
    kind = kinds.register(Lives())
    yield kind
    kinds.unregister(kind.name)


# -- the new-table form, without a window ------------------------------------------------------------------


def test_with_one_game_the_form_has_no_game_row_and_sends_no_game(peg_only):
    from board99.client.gui.lobby_model import NewTableForm, several_kinds

    form = NewTableForm()
    assert not several_kinds()
    assert [row.name for row in form.rows()] == ["players", "mode"]
    assert [c.key for c in form.rows()[0].choices] == ["players-2", "players-3", "players-4", "players-6"]
    request = form.request("den")
    assert request.game == "peg-board" and request.options == {} and request.default_game and request.plain


def test_a_second_kind_brings_a_game_row_its_counts_modes_and_options(second_kind):
    from board99.client.gui.lobby_model import NewTableForm

    form = NewTableForm()
    game, players, mode = form.rows()
    assert (game.name, [c.words for c in game.choices], [c.chosen for c in game.choices]) == (
        "game", ["GAME OF 99", "LIVES"], [True, False])
    form.choose(players=6)
    form.choose_row("game", "lives-test")
    rows = {row.name: row for row in form.rows()}
    assert list(rows) == ["game", "players", "mode", "option-lives"]
    assert [c.value for c in rows["players"].choices] == [2, 3, 4, 5]
    assert (form.players, form.mode) == (2, "penalty")  # 6 and guarded are not this game's: its first ones
    assert [(c.key, c.chosen) for c in rows["option-lives"].choices] == [
        ("option-lives-1", False), ("option-lives-2", False), ("option-lives-3", True)]
    assert rows["option-lives"].help == "tokens a player carries across rounds"
    form.choose_row("option-lives", 1)
    form.choose_row("players", 5)
    request = form.request("den")
    assert (request.game, request.players, request.mode, request.options) == ("lives-test", 5, "penalty",
                                                                                {"lives": 1})
    assert not request.default_game
    form.choose_row("game", "peg-board")
    assert (form.players, form.mode, form.options) == (2, "penalty", {})  # kept where the peg-board allows them


def test_the_bots_offered_are_the_chosen_games(second_kind):
    from board99.client.gui.lobby_model import LobbyModel, bot_choices

    assert bot_choices(kinds.get("peg-board")) == ("rulebook", "search", "random")
    model = LobbyModel()
    model.form.choose_game("lives-test")
    assert model.bot_choices() == ("rulebook", "search", "random")  # the test kind has the peg-board's bots
    model.bot_name = "nobody"
    assert model.bot_for(None) == "random"  # a bot the game has not: its stand-in bot


def test_the_lobby_model_orders_pages_and_keeps_places_without_a_window():
    from board99.client.gui.lobby_model import PER_PAGE, LobbyModel

    model = LobbyModel()
    waiting = table_info([{"name": None}, {"name": None}], id="open", state="waiting")
    playing = table_info([{"name": "A", "occupant": "human"}, {"name": "B", "occupant": "human"}], id="on",
                         state="playing")
    assert model.show_tables([playing, waiting], set())  # the first answer is sorted: joinable first
    assert [t.id for t in model.tables] == ["open", "on"]
    newcomer = table_info([{"name": None}, {"name": None}], id="new", state="waiting")
    assert model.show_tables([newcomer, playing], set())  # a refresh keeps places: the new one takes the gap
    assert [t.id for t in model.tables] == ["new", "on"]
    assert not model.show_tables([newcomer, playing], set())  # nothing new
    model.asked_tables(sort=True)
    model.tables_came()
    model.show_tables([playing, newcomer], set())
    assert [t.id for t in model.tables] == ["new", "on"]  # asked for afresh: sorted again
    assert model.pager() == ("1–2 of 2", False, False)
    model.page = 2
    assert model.page_emptied(0, PER_PAGE + 1) and model.page == 1
    model.found([{"name": f"s{i}", "host": "h", "port": i} for i in range(5)])
    model.scroll_servers(+2)
    assert model.status == "Servers found: 3–4 of 5; ‹ › for the others. Click one to join"


# -- the lobby window ------------------------------------------------------------------------------------


class Recorder:
    """The client a stand-in session's ``call`` runs its request on: it records create_table's arguments."""

    def __init__(self) -> None:
        self.created: list[tuple[tuple, dict]] = []

    def create_table(self, *args, **kwargs):
        self.created.append((args, kwargs))
        return None


class StandIn:
    """Only what the lobby uses of a session."""

    endpoint = "tcp://192.168.1.20:9099"
    key = None
    player = None
    name = "Ann"

    def __init__(self) -> None:
        self.client = Recorder()
        self.plain: list = []

    def call(self, op: str, run) -> None:
        run(self.client)

    def create_table(self, *args, **kwargs) -> None:
        self.plain.append((args, kwargs))

    def drain(self) -> list:
        return []

    def list_tables(self) -> None:
        pass

    def kept(self) -> dict:
        return {}


def _click(win, lobby, key: str) -> None:
    button = lobby.buttons[key]
    win.click(button.rect.center_x, button.rect.center_y)
    step(win, 1)


def _texts(lobby) -> list[str]:
    return [getattr(w, "text", "") for w in lobby.dynamic]


@pytest.mark.slow
def test_the_lobby_offers_a_second_game_with_no_lobby_change_and_names_it_on_cards(second_kind):
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    session = StandIn()
    lobby = LobbyView(session, address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    win.show_view(lobby)
    step(win, 2)
    assert {"game-peg-board", "game-lives-test"} <= set(lobby.buttons) and "GAMES OF 99" in _texts(lobby)
    _click(win, lobby, "game-lives-test")
    assert {"players-5", "mode-penalty", "option-lives-1"} <= set(lobby.buttons) and "players-6" not in lobby.buttons
    # Every row still lies inside the form's column and above the status line.
    for key in ("game-lives-test", "players-5", "option-lives-3", "bot-random", "create"):
        rect = lobby.buttons[key].rect
        left, bottom, width, _ = lobby.box(0, 0, 300, 766)
        assert left <= rect.left and rect.right <= left + width + 1 and rect.bottom >= bottom - 1, key
    for key in ("players-4", "option-lives-2", "create"):
        _click(win, lobby, key)
    args, kwargs = session.client.created[-1]
    assert (args[1:3], kwargs["game"], kwargs["options"]) == ((4, "penalty"), "lives-test", {"lives": 2})
    assert session.plain == []
    lobby.show_tables([table_info([{"name": None}, {"name": None}], id="t1", name="Friday")])
    step(win, 1)
    assert any(text.startswith("GAME OF 99 · 2 players alone") for text in _texts(lobby))


@pytest.mark.slow
def test_the_lobby_with_one_game_sends_what_it_always_sent(peg_only):
    from board99.client.gui.lobby_view import LobbyView

    win = window()
    session = StandIn()
    lobby = LobbyView(session, address="192.168.1.20:9099", name="Ann")  # type: ignore[arg-type]
    win.show_view(lobby)
    step(win, 2)
    assert not any(key.startswith("game-") for key in lobby.buttons) and "GAME OF 99" in _texts(lobby)
    _click(win, lobby, "players-4")
    _click(win, lobby, "create")
    assert session.plain == [(("Table", 4, "guarded", None), {})] and session.client.created == []
    lobby.show_tables([table_info([{"name": None}, {"name": None}], id="t1", name="Friday")])
    step(win, 1)
    assert any(text.startswith("2 players alone") for text in _texts(lobby))


# -- the screens registry and the app --------------------------------------------------------------------


def test_the_screens_of_a_kind_and_of_a_record():
    from board99 import Game
    from board99.client.gui import screens
    from board99.client.gui.replay_view import ReplayView
    from board99.client.gui.table_view import TableView
    from board99.record import Record

    assert screens.for_kind("peg-board").table is TableView
    text = Record.of(Game(2, "guarded", seed=3)).dumps()
    assert screens.for_record(text).replay is ReplayView
    assert screens.for_record("not a record").replay is ReplayView  # its replay screen says why not
    with pytest.raises(KeyError, match="lives-test"):
        screens.for_kind("lives-test")


@pytest.mark.slow
def test_the_app_shows_a_table_on_its_games_screen(second_kind):
    import arcade

    from board99.client.gui import screens
    from board99.client.gui.app import App

    made = []

    class LivesTable(arcade.View):
        def __init__(self, session, sounds, **callbacks) -> None:
            super().__init__()
            made.append((session, sorted(callbacks)))

    screens.register("lives-test", screens.Screens(LivesTable, LivesTable, lambda text: None))
    try:
        app = App(window(), discover=None)
        shown = app.show_table("lives-test")
        assert isinstance(shown, LivesTable) and made == [(None, ["on_help", "on_lobby", "on_quit", "on_settings"])]
        assert type(app.show_table()).__name__ == "TableView"
    finally:
        screens.unregister("lives-test")
        window().show_view(arcade.View())


def test_practice_is_checked_by_its_kind_before_any_request(second_kind):
    from board99.client.gui.app import practice_setup

    with pytest.raises(kinds.SettingsError, match="players"):
        practice_setup(5, "guarded")  # the peg-board game has no five-player table
    practice_setup(5, "penalty", game="lives-test")  # the test kind has
    with pytest.raises(kinds.SettingsError, match="mode"):
        practice_setup(2, "guarded", game="lives-test")


# -- sides, asked rather than worked out --------------------------------------------------------------------


def test_side_members_follow_the_tables_seats_not_seat_modulo_sides():
    from board99.client.gui import wording

    # Four players each alone (as the test kind seats them): the seats say so, whatever 4 % 2 would.
    table = table_info([{"name": n} for n in "ABCD"], players=4)._replace(
        seats=tuple(s._replace(side=s.seat) for s in table_info([{"name": n} for n in "ABCD"], players=4).seats))
    assert [wording.side_members(side, None, table, 4) for side in range(4)] == [[0], [1], [2], [3]]
    partners = table_info([{"name": n} for n in "ABCD"], players=4)
    assert wording.side_members(1, None, partners, 4) == [1, 3]
    assert wording.side_members(2, None, None, 3) == [2]  # nothing says otherwise: everyone alone


def test_a_cards_reach_is_said_as_the_card_is_printed():
    from board99 import Play, label
    from board99.client.gui import wording

    assert wording.picked(7) == f"Card 7 picked: it allows squares {label(7)}. Click a square."
    assert wording.refused("below-card", "", Play(40, 38)) == f"Card 40 cannot go on square 38: it allows {label(40)}"


# -- a second game through a real server ---------------------------------------------------------------


@pytest.mark.slow
def test_the_lobby_creates_and_fills_a_table_of_the_test_only_aces_kind_on_a_real_server(tmp_path):
    import arcade

    from board99.client.gui.app import App
    from board99.server.loop import run_in_thread
    from tests.aces_kind import ACES
    from tests.gui_harness import run_until

    kinds.names()
    kinds.register(ACES)
    server = run_in_thread(port=0, data_dir=tmp_path, bot_delay=0.0)
    win = window()
    app = App(win, name="Ann", discover=None)
    try:
        app.connect(server.endpoint)
        lobby = app.lobby
        assert lobby is not None
        run_until(win, lambda: "game-aces" in lobby.buttons, 10, "the game row with the aces game")
        for key in ("game-aces", "players-3", "option-target-2", "create"):
            _click(win, lobby, key)
        run_until(win, lambda: bool(lobby.model.tables), 10, "the aces table's card")
        assert lobby.buttons["bot-drawer"].ring.color == (255, 255, 255, 255)  # its one bot shown chosen
        (table,) = lobby.model.tables
        assert (table.kind, table.players, table.mode, table.options) == ("aces", 3, "plain", (("target", 2),))
        assert any(text.startswith("FIRST TO 3 ACES · Aces to win 2 · 3 players · plain") for text in _texts(lobby))
        _click(win, lobby, f"bot-{table.id}-1")  # "+ bot": the chosen bot is not the aces game's: its own
        run_until(win, lambda: lobby.model.tables[0].seats[1].occupant == "bot", 10, "the aces game's bot")
        assert lobby.model.tables[0].seats[1].name == ACES.standin_bot
    finally:
        app.shutdown()
        step(win, 1)
        server.stop()
        kinds.unregister(ACES.name)
    lobby.build()  # the lobby on screen outlives its game: its form falls back to the default one
    assert lobby.model.form.game == kinds.DEFAULT and "players-6" in lobby.buttons
    win.show_view(arcade.View())
