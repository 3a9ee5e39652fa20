"""The window's one kind of button (buttons.py): a ButtonSet's click, the looks' states, and no second system."""

from __future__ import annotations

import pytest

from tests.gui_harness import window

pytestmark = pytest.mark.timeout(60)


def test_a_click_is_a_press_and_a_release_on_the_same_enabled_button():
    from board99.client.gui.buttons import ButtonSet
    from board99.client.gui.textures import white

    window()  # a GL context for the sprites and texts
    clicked: list[str] = []
    buttons = ButtonSet(white())
    buttons.add("a", "A", lambda: clicked.append("a"), 10, 10, 100, 30)
    buttons.add("b", "B", lambda: clicked.append("b"), 200, 10, 100, 30, disabled=True)
    assert buttons.press(50, 20) and buttons.release(60, 25)
    assert clicked == ["a"]
    assert buttons.press(50, 20) and buttons.release(250, 20)  # released off the button: nothing
    assert buttons.press(250, 20) and not buttons.release(250, 20)  # a disabled one swallows the press
    assert not buttons.press(500, 500)  # not on a button: the screen's own handlers have it
    assert clicked == ["a"]
    buttons.add("a", "A again", lambda: clicked.append("again"), 10, 10, 100, 30)  # built again: the new action
    buttons.press(20, 20)
    buttons.release(20, 20)
    assert clicked == ["a", "again"] and buttons.by_name["a"].text == "A again"
    buttons.clear()
    assert not buttons.press(50, 20) and buttons.by_name == {}


def test_menu_buttons_outline_when_hovered_or_chosen_and_light_up_while_pressed():
    from board99.client.gui.buttons import CHOSEN, WHITE, ButtonSet, rgba
    from board99.client.gui.textures import white

    window()
    buttons = ButtonSet(white())
    plain = buttons.add("plain", "Plain", lambda: None, 10, 10, 100, 30)
    chosen = buttons.add("chosen", "Chosen", lambda: None, 200, 10, 100, 30, chosen=True)
    assert plain.ring is not None and chosen.ring is not None
    assert plain.ring.color == plain.sprite.color  # no outline
    assert chosen.sprite.color == rgba(CHOSEN) and chosen.ring.color == rgba(WHITE)
    buttons.hover(50, 20)
    assert plain.ring.color == (230, 230, 230, 255) and plain.sprite.color != rgba((44, 62, 80))
    buttons.press(50, 20)
    assert plain.sprite.color == (236, 240, 241, 255) and plain.label.color == (20, 20, 20, 255)
    buttons.release(50, 20)
    assert plain.sprite.color != (236, 240, 241, 255)


def test_there_is_one_button_system():
    from board99.client.gui import widgets

    assert not hasattr(widgets, "button") and not hasattr(widgets, "button_style")
