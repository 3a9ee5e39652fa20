"""The new-table form's "House rules…" panel: every further option of the chosen game, in the table cards' place.

Each option is listed under its kind's heading (``OptionSpec.group``) with its
choices as buttons, or, when it has many (what a rank does: 15 effects), as a
button that opens a menu of them; under each, what the rule set itself says and
the option's help, all in the kind's own words. Why the kind refuses the
settings chosen (its ``SettingsError``) heads the panel in red. Options flow
into two columns and, when they fill both, onto further pages. Every click is
an intent on the form (``lobby_model.NewTableForm``); sizes are design units
from the content's top left, as everywhere in the lobby.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple, Protocol

from board99.kinds import OptionSpec

from .buttons import CHOSEN
from .lobby_model import LobbyModel, NewTableForm, face_words
from .lobby_panels import LEFT, TOP, WIDTH
from .palette import BAD, TEXT, TEXT_DIM

BOTTOM = 762  # the panel's last unit: the status line is below
#: The two columns' widths: the left one for rows of buttons, the right one (what each rank does, in words) wider.
COLUMNS, COLUMN_GAP = (420, 470), 30
HEADING_H, ROW_H, MENU_ROW_H = 26, 46, 30
LABEL_W = 146  # an option's name, left of its buttons
MENU_AT = 7  # an option with more choices than this is chosen from a menu
FIRST = TOP + 62  # the first heading's top, under the title and the line of refusal or hint
HINT = ("“rule” keeps the rule set's own choice, named under each option. "
        "The table's card shows everyone what you change.")


class Placed(NamedTuple):
    """One item of the panel at its place: a group's heading (``option`` None) or an option."""

    page: int
    column: int
    y: float
    heading: str
    option: OptionSpec | None


class HouseCanvas(Protocol):
    """What the panel draws on and asks of the lobby (``LobbyView``)."""

    model: LobbyModel

    def label(self, text: str, x: float, y: float, w: float, h: float, size: float = 12,
              color: tuple[int, int, int] = TEXT, bold: bool = False, align: str = "left") -> object:
        """Words in this box."""

    def button(self, key: str, text: str, action: Any, x: float, y: float, w: float, h: float,
               size: float = 12, **style: Any) -> object:
        """A button in this box that runs ``action``."""

    def change(self, intent: Callable[[], object]) -> Callable[[], None]:
        """A callback that carries ``intent`` out on the model and shows the lobby after it."""


def by_menu(option: OptionSpec) -> bool:
    """Whether the option is chosen from a menu (too many choices for a row of buttons)."""
    return len(option.choices) > MENU_AT


def placed(form: NewTableForm) -> list[Placed]:
    """Every heading and option of the panel at its page, column and top: they flow down a column, then into the
    next (two columns a page); a heading never ends a column."""
    out: list[Placed] = []
    page = column = 0
    y = float(FIRST)

    def room(height: float) -> None:
        nonlocal page, column, y
        if y + height > BOTTOM and y > FIRST:
            column += 1
            page, column = page + column // 2, column % 2
            y = float(FIRST)

    for heading, options in form.groups():
        for i, option in enumerate(options):
            height = MENU_ROW_H if by_menu(option) else ROW_H
            room(height + (HEADING_H if i == 0 else 0))
            if i == 0 or y == FIRST:  # a group's heading, again at the top of a column it goes on in
                out.append(Placed(page, column, y, heading, None))
                y += HEADING_H
            out.append(Placed(page, column, y, heading, option))
            y += height
    return out


def pages(form: NewTableForm) -> int:
    """How many pages the panel has."""
    return 1 + max((p.page for p in placed(form)), default=0)


def build_house(view: HouseCanvas) -> None:
    """The panel's title, its line of refusal (or hint), and this page's options (or the open menu)."""
    form = view.model.form
    kind = form.kind
    said = " · ".join(face_words(kind, form.options))
    title = f"House rules · {kind.title}{' · ' + said if said else ''} · {form.players} players"
    view.label(title, LEFT, TOP, WIDTH - 300, 30, 14, bold=True)
    view.button("house-reset", "Undo house rules", view.change(form.reset_house), LEFT + WIDTH - 290, TOP, 190, 30,
                11, disabled=not form.changed())
    view.button("house-done", "Done", view.change(partial(form.open_house, False)), LEFT + WIDTH - 92, TOP, 92, 30,
                12, bg=CHOSEN)
    refused = form.refusal()
    view.label(f"Not allowed: {refused}" if refused else HINT, LEFT, TOP + 32, WIDTH, 26, 11,
               BAD if refused else TEXT_DIM, bold=bool(refused))
    items = placed(form)
    last = max((p.page for p in items), default=0)
    form.house_page = max(0, min(form.house_page, last))
    shown = [p for p in items if p.page == form.house_page]
    menu = next((p for p in shown if p.option is not None and p.option.name == form.menu), None)
    for p in shown:
        if menu is not None:
            break  # the menu covers the page
        x = LEFT + p.column * (COLUMNS[0] + COLUMN_GAP)
        width = COLUMNS[p.column]
        if p.option is None:
            view.label(p.heading, x, p.y, width, HEADING_H - 2, 12, TEXT, bold=True)
        elif by_menu(p.option):
            _menu_row(view, form, p.option, x, p.y, width)
        else:
            _button_row(view, form, p.option, x, p.y, width)
    if menu is not None and menu.option is not None:
        _menu(view, form, menu.option)
    if last:
        view.label(f"page {form.house_page + 1} of {last + 1}", LEFT + WIDTH - 300, BOTTOM - 28, 110, 28, 11,
                   TEXT_DIM, align="right")
        view.button("house-back", "‹ Back", view.change(partial(_turn, form, -1)), LEFT + WIDTH - 184, BOTTOM - 30,
                    88, 28, 11, disabled=form.house_page == 0)
        view.button("house-more", "More ›", view.change(partial(_turn, form, +1)), LEFT + WIDTH - 90, BOTTOM - 30,
                    88, 28, 11, disabled=form.house_page == last)


def _turn(form: NewTableForm, step: int) -> None:
    form.house_page, form.menu = max(0, form.house_page + step), None


def rule_words(form: NewTableForm, option: OptionSpec) -> str:
    """What the option's default comes to at this table: 'Convention: 7' (the rule set that says so, and its value)."""
    own = option.default_words(form.options)
    if not option.follows:
        return f"default: {own}"
    leader = next((o for o in form.kind.options if o.name == option.follows), None)
    said = leader.choice_words(form.options.get(leader.name, leader.default)) if leader is not None else ""
    return f"{said}: {own}" if said else own


def _button_row(view: HouseCanvas, form: NewTableForm, option: OptionSpec, x: float, y: float,
                width: float) -> None:
    # Its name, its choices as buttons (each as wide as its words ask, "rule" beside "0"-"5"); under them the
    # rule set's own choice and the option's help.
    value = form.options.get(option.name, option.default)
    view.label(option.label, x, y, LABEL_W - 6, 26, 11 if len(option.label) < 20 else 10, TEXT)
    words = [option.choice_words(choice) for choice in option.choices]
    weights = [max(3, len(w)) + 3 for w in words]
    room = width - LABEL_W - 4 * (len(words) - 1)
    left = x + LABEL_W
    for choice, said, weight in zip(option.choices, words, weights):
        chosen = choice == value and type(choice) is type(value)
        w = room * weight / sum(weights)
        view.button(f"house-{option.name}-{choice}", said,
                    view.change(partial(form.choose_row, f"option-{option.name}", choice)), left, y, w, 26, 10,
                    chosen=chosen)
        left += w + 4
    help_ = f" · {option.help}" if option.help else ""
    view.label(rule_words(form, option) + help_, x, y + 26, width, 18, 9, TEXT_DIM)


def _menu_row(view: HouseCanvas, form: NewTableForm, option: OptionSpec, x: float, y: float,
              width: float) -> None:
    # Its name, a button with its value in words that opens its menu, and the rule set's own where it differs.
    value = form.options.get(option.name, option.default)
    name = option.short[:1].upper() + option.short[1:] if option.short else option.label
    view.label(name, x, y, 46, MENU_ROW_H - 4, 11, TEXT, bold=True)
    own = option.default_words(form.options)
    changed = option.changes(value, form.options)
    words = option.choice_words(value) if changed else own  # a change is lit, the rule set's own beside it
    view.button(f"house-{option.name}", words + "  ▾", view.change(partial(form.open_menu, option.name)), x + 48, y,
                226, MENU_ROW_H - 4, 10, chosen=changed)
    if changed:
        view.label(rule_words(form, option), x + 280, y, width - 280, MENU_ROW_H - 4, 9, TEXT_DIM)


def _menu(view: HouseCanvas, form: NewTableForm, option: OptionSpec) -> None:
    # The option's choices, each in its words (one button for choices that say the same), three columns across
    # the panel: room for the longest words ("adds 0, the next player may not draw").
    value = form.options.get(option.name, option.default)
    view.label(f"{option.label}: choose one", LEFT, FIRST, WIDTH - 100, HEADING_H, 12, TEXT, bold=True)
    view.button(f"menu-{option.name}-close", "Cancel", view.change(partial(form.open_menu, None)),
                LEFT + WIDTH - 92, FIRST - 2, 92, HEADING_H, 11)
    seen: dict[str, Any] = {}
    for choice in option.choices:
        words = option.choice_words(choice)
        if choice == option.default:
            words = f"{words}: {option.default_words(form.options)}"
        seen.setdefault(words, choice)
    said = option.choice_words(value)
    width = (WIDTH - 2 * 8) / 3
    for i, (words, choice) in enumerate(seen.items()):
        row, col = divmod(i, 3)
        chosen = choice == value if choice == option.default else said == option.choice_words(choice)
        view.button(f"menu-{option.name}-{choice}", words,
                    view.change(partial(form.choose_row, f"option-{option.name}", choice)),
                    LEFT + col * (width + 8), FIRST + HEADING_H + 8 + row * 40, width, 34, 11, chosen=chosen)
