"""Scenes as the server sends them (the contract: docs/web.md, "Scenes"), written out for the page's tests.

Each is what a guest would see at a real moment: the lobby with tables of both games, a peg-board table
mid-game (a card picked, its squares lit, the last move marked), a Ninety-Nine table with the running total
and a two-valued ace, and the end of a game. The words are the window's (client/gui/wording.py).
"""

from __future__ import annotations

import copy

from board99.client.gui.palette import COLOUR_RGB
from board99.layout import LAYOUT

COLOURS = {name: "#{:02x}{:02x}{:02x}".format(*rgb) for name, rgb in COLOUR_RGB.items()}


def button(id: str, label: str, name: str | None = None, enabled: bool = True, why: str | None = None,
           primary: bool = False) -> dict:
    """One button item."""
    return {"id": id, "label": label, "name": name or label, "enabled": enabled, "why": why, "primary": primary}


def welcome() -> dict:
    """The first screen of a guest without a name: one field and its button."""
    return {
        "screen": "welcome", "title": "Welcome · board99", "turn": False,
        "headline": {"text": "Welcome to board99", "tone": "plain"}, "keys": [], "colours": COLOURS,
        "parts": [
            {"type": "text", "id": "intro", "role": "para", "tone": "plain",
             "text": "Pick the name the other players will see."},
            {"type": "form", "id": "hello", "label": "Your name", "fields": [
                {"id": "name", "label": "Name", "kind": "text", "value": "", "choices": [], "max": 40}],
             "submit": {"id": "enter", "label": "Enter the lobby"}},
        ],
    }


def lobby() -> dict:
    """The lobby: a create-table form and four tables of both games."""
    return {
        "screen": "lobby", "title": "Lobby · board99", "turn": False,
        "headline": {"text": "Pick a table, or make one", "tone": "plain"},
        "keys": [{"key": "r", "label": "Rules"}, {"key": "n", "label": "New table"}],
        "colours": COLOURS,
        "parts": [
            {"type": "text", "id": "hello", "text": "Hello, Zoe. 5 players here.", "tone": "plain", "role": "para"},
            {"type": "tables", "id": "tables", "items": [
                {"id": "t1", "title": "Friday four · GAME OF 99",
                 "lines": ["4 players · penalty mode · 30 s a turn", "Ann, Ben (bot), Cy · 1 seat free"],
                 "buttons": [button("sit:t1", "Sit", "Sit at Friday four", primary=True),
                             button("watch:t1", "Watch", "Watch Friday four")]},
                {"id": "t2", "title": "Quick two · GAME OF 99",
                 "lines": ["2 players · guarded", "Deal 3 under way · Eli vs Fay"],
                 "buttons": [button("sit:t2", "Sit", "Sit at Quick two", enabled=False, why="Both seats are taken"),
                             button("watch:t2", "Watch", "Watch Quick two")]},
                {"id": "t3", "title": "Pub rules · Ninety-Nine",
                 "lines": ["Tokens rules (003) · 3 tokens each", "Gus, Hal · 2 seats free"],
                 "buttons": [button("sit:t3", "Sit", "Sit at Pub rules", primary=True),
                             button("watch:t3", "Watch", "Watch Pub rules"),
                             button("bot:t3", "Add a bot", "Add a bot to Pub rules")]},
                {"id": "t4", "title": "Convention · Ninety-Nine",
                 "lines": ["Convention rules (002) · rated", "Ivy, Jo, Kai, Lu · match 2 of 3"],
                 "buttons": [button("sit:t4", "Sit", "Sit at Convention", enabled=False,
                                    why="Rated tables need a player key: this one is full"),
                             button("watch:t4", "Watch", "Watch Convention")]},
            ]},
            {"type": "form", "id": "new", "label": "New table", "fields": [
                {"id": "game", "label": "Game", "kind": "select", "value": "ninety-nine",
                 "choices": [{"value": "peg-board", "label": "GAME OF 99 (peg-board)"},
                             {"value": "ninety-nine", "label": "Ninety-Nine (cards)"}], "max": None},
                {"id": "players", "label": "Players", "kind": "select", "value": "4",
                 "choices": [{"value": str(n), "label": str(n)} for n in (2, 3, 4, 6)], "max": None},
                {"id": "name", "label": "Table name", "kind": "text", "value": "", "choices": [], "max": 24},
            ], "submit": {"id": "create", "label": "Create table"}},
            {"type": "buttons", "id": "more", "label": "", "items": [
                button("rules", "Rules", "Read the rules"), button("name", "Change name")]},
        ],
    }


GREEN = {73, 75, 76, 56, 63, 54, 67, 53, 16, 38, 83, 84, 64, 99, 33, 29, 43, 96, 93, 92}
PURPLE = {70, 72, 77, 79, 80, 55, 17, 15, 82, 4, 34, 41, 47, 98, 87, 97, 95, 91, 90, 89, 88}
PICKED = 44


def _square(number: int) -> dict:
    peg = "green" if number in GREEN else "purple" if number in PURPLE else None
    lit = peg is None and number >= PICKED  # the server's word: card 44 allows the free squares 44-99
    last = number == 64
    name = f"Square {number}" + (f", {peg} peg" if peg else ", free") + (", last move" if last else "")
    why = None if lit else (f"Square {number} is taken" if peg else f"Card {PICKED} allows squares {PICKED} to 99")
    return {"id": f"sq:{number}", "label": str(number), "name": name, "peg": peg, "lit": lit, "last": last,
            "enabled": lit, "why": why}


def peg_table(turn: bool = True) -> dict:
    """A 4-player peg-board table mid-game, the guest to play with card 44 picked."""
    hand = [(91, False), (44, True), (61, False)]
    return {
        "screen": "table", "title": "Your turn · board99" if turn else "Friday four · board99", "turn": turn,
        "headline": {"text": "Your turn" if turn else "Ben (bot) to play", "tone": "good" if turn else "plain"},
        "keys": [{"key": "d", "label": "Draw"}, {"key": "x", "label": "Discard"}, {"key": "escape", "label": "Lobby"}],
        "colours": COLOURS,
        "parts": [
            {"type": "text", "id": "hint", "role": "status", "tone": "plain",
             "text": "Card 44 picked: it allows squares 44 to 99. Tap a lit square."},
            {"type": "grid", "id": "board", "label": "Board", "cols": 10,
             "cells": [_square(n) for row in LAYOUT for n in row]},
            {"type": "cards", "id": "hand", "label": "Your hand", "items": [
                {"id": f"card:{i}", "label": str(c), "name": f"Card {c}" + (", picked" if sel else ""),
                 "face": str(c), "suit": None, "selected": sel, "enabled": True, "why": None, "detail": "to 99"}
                for i, (c, sel) in enumerate(hand)]},
            {"type": "buttons", "id": "acts", "label": "", "items": [
                button("draw", "Draw", "Draw a card", primary=True),
                button("discard", "Discard", "Discard card 44"),
                button("cancel", "Cancel", "Put card 44 back"),
                button("rematch", "Rematch", enabled=False, why="The game is still on"),
            ]},
            {"type": "clock", "id": "clock", "seconds": 27.0, "label": "Your turn clock"},
            {"type": "seats", "id": "seats", "side": True, "items": [
                {"name": "Ann (you)", "colour": "green", "turn": turn, "you": True, "detail": "3 cards · 10 discarded"},
                {"name": "Ben (bot)", "colour": "purple", "turn": not turn, "you": False, "detail": "1 card"},
                {"name": "Cy · your partner", "colour": "green", "turn": False, "you": False,
                 "detail": "0 cards · misses 1 turn"},
                {"name": "Di (bot)", "colour": "purple", "turn": False, "you": False, "detail": "1 card"},
            ]},
            {"type": "text", "id": "deck", "role": "para", "tone": "plain", "side": True,
             "text": "Deck: 51 · penalty mode: offences are warned about first and penalised after."},
            {"type": "list", "id": "since", "label": "Since your turn", "side": True, "items": [
                "Ben (bot): drew", "Cy: square 64", "Di (bot): drew",
                "Penalty: Cy discarded out of turn (card 99). Rule: the player's next turn is skipped"]},
        ],
    }


def ninety_table() -> dict:
    """A Ninety-Nine table (tokens rules): total 92, an ace that counts 1 or 11, two cards that do not fit."""
    hand = [("A", "hearts", "+1 or +11", True, None), ("10", "spades", "+10 or −10", True, None),
            ("8", "diamonds", "+8", False, "8 would take the total to 100: over 99"),
            ("K", "clubs", "+0", True, None)]
    return {
        "screen": "table", "title": "Your turn · board99", "turn": True,
        "headline": {"text": "Your turn: the total is 92", "tone": "good"},
        "keys": [{"key": "1", "label": "Card 1"}, {"key": "ArrowUp", "label": "Ace high"}, {"key": "f1", "label": "Rules"},
                 {"key": "escape", "label": "Lobby"}],
        "colours": COLOURS,
        "parts": [
            {"type": "seats", "id": "seats", "items": [
                {"name": "Gus", "colour": None, "turn": False, "you": False, "detail": "4 cards · 2 tokens"},
                {"name": "Hal (bot)", "colour": None, "turn": False, "you": False, "detail": "4 cards · 3 tokens"},
                {"name": "Zoe (you)", "colour": None, "turn": True, "you": True, "detail": "4 cards · 3 tokens · dealer"},
            ]},
            {"type": "total", "id": "total", "value": 92, "label": "Total"},
            {"type": "text", "id": "play", "role": "para", "tone": "plain",
             "text": "Play goes ↻ clockwise · stock 17 · pile 7: Hal played the 6 of hearts (+6)"},
            {"type": "cards", "id": "hand", "label": "Your hand", "items": [
                {"id": f"card:{i}", "label": f"{face} of {suit}", "name": f"{face} of {suit}: {detail}"
                 + ("" if ok else f" (does not fit: {why})"), "face": face, "suit": suit,
                 "selected": False, "enabled": ok, "why": why, "detail": detail}
                for i, (face, suit, detail, ok, why) in enumerate(hand)]},
            {"type": "buttons", "id": "ace", "label": "The ace counts", "items": [
                button("ace:1", "+1", "Ace counts 1", primary=True), button("ace:11", "+11", "Ace counts 11",
                                                                             enabled=False,
                                                                             why="+11 would take the total to 103")]},
            {"type": "clock", "id": "clock", "seconds": None, "label": "No turn clock"},
            {"type": "list", "id": "log", "label": "What happened (newest first)", "side": True, "items": [
                "Hal played the 6 of hearts (+6): total 92", "Gus played the king of spades (+0): total 86",
                "You played the 10 of clubs (+10): total 86", "Hal lost a token: could not play"]},
        ],
    }


def game_over() -> dict:
    """The peg-board table at the end of a game: a dialog with a rematch and the way back."""
    scene = peg_table(turn=False)
    scene["title"] = "Green wins · board99"
    scene["headline"] = {"text": "Green wins!", "tone": "good"}
    scene["parts"].append({"type": "dialog", "id": "end", "title": "Green wins!",
                           "text": "Cy completed 73 – 63 – 53 – 43 – 33.\nGreen 1 · Purple 0",
                           "buttons": [button("rematch", "Rematch", primary=True), button("lobby", "Lobby")]})
    return scene


def variant(scene: dict, **changes: object) -> dict:
    """A copy of a scene with top-level fields changed."""
    copied = copy.deepcopy(scene)
    copied.update(changes)
    return copied
