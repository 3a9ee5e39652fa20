"""The lessons (board99/lessons): every lesson's solution and its wrong answers played through the engine,
the topics they must cover together, the rulebook's words they quote, and the reader's errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from board99 import Discard, Draw, Play
from board99.events import Passed, Penalty, Played, Skipped, Tied, Won
from board99.layout import POSITION, winning_squares
from board99.lessons import (
    TOPICS,
    Lesson,
    LessonError,
    LessonRun,
    PlayStep,
    QuizStep,
    catalogue,
    names,
    parse,
    solve,
)
from board99.lessons.model import said

ROOT = Path(__file__).resolve().parents[1]
#: The 1963 rulebook, where the project keeps its source documents (docs/rules.md names it).
#: The 1963 rulebook's text, kept with the tests so the quotes are checked on any clone.
RULEBOOK = ROOT / "tests" / "data" / "rulebook-1963.txt"
#: The source document beside the checkout, where there is one (the copy must not drift from it).
SOURCE = ROOT.parent / "shared" / "seeds" / "001_2d60de5052b7838d.txt"
LESSONS = catalogue()
BY_ID = {lesson.id: lesson for lesson in LESSONS}


def ids(lessons: tuple[Lesson, ...]) -> list[str]:
    return [lesson.id for lesson in lessons]


def played_to(lesson: Lesson, step: int) -> LessonRun:
    """A run of ``lesson`` with its steps before ``step`` solved."""
    run = LessonRun(lesson)
    for earlier in lesson.steps[:step]:
        outcome = run.act(earlier.solution) if isinstance(earlier, PlayStep) else run.answer(earlier.answer)
        assert outcome.right, (lesson.name, outcome)
    return run


def wrong_answers(lesson: Lesson) -> list[tuple[int, object, str]]:
    """(step, action or choice, the why it must give) for every foreseen wrong answer of the lesson."""
    found: list[tuple[int, object, str]] = []
    for i, step in enumerate(lesson.steps):
        if isinstance(step, QuizStep):
            found += [(i, choice, step.why[choice]) for choice in range(len(step.choices)) if choice != step.answer]
        else:
            found += [(i, wrong.example, wrong.why) for wrong in step.wrong if wrong.example is not None]
    return found


# -- every lesson is played -------------------------------------------------------------------------------


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_the_solution_of_every_lesson_is_right_at_every_step(lesson: Lesson) -> None:
    run, outcomes = solve(lesson)
    assert [o.verdict for o in outcomes] == ["next"] * (len(lesson.steps) - 1) + ["done"]
    assert run.done and run.step is None


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_lesson_has_a_wrong_answer_that_the_engine_and_the_lesson_explain(lesson: Lesson) -> None:
    wrongs = wrong_answers(lesson)
    assert wrongs, f"{lesson.name}: no wrong answer to test (a [[step.wrong]] with an example, or a question)"
    for step, answer, why in wrongs:
        run = played_to(lesson, step)
        before = run.view
        outcome = run.answer(answer) if isinstance(answer, int) else run.act(answer)  # type: ignore[arg-type]
        if not isinstance(answer, int):  # the words name the move made and the hand it left
            why = said(why, answer, run.game.hand(lesson.table.you))  # type: ignore[arg-type]
        assert not outcome.right and outcome.why == why and why, (lesson.name, step, answer, outcome)
        assert "{" not in outcome.why and "}" not in outcome.why
        if outcome.verdict == "refused":  # the engine said no: nothing changed, and it says why
            assert outcome.refusal is not None and outcome.refusal.message and run.view == before
        else:
            assert outcome.verdict == "wrong" and run.failed
            assert run.retry() == before and not run.failed  # back to the step's start


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_a_task_refused_by_the_engine_changes_nothing_and_says_why(lesson: Lesson) -> None:
    # Every lesson meets the same engine: a card the learner does not hold is refused with its reason.
    for i, step in enumerate(lesson.steps):
        if isinstance(step, PlayStep):
            run = played_to(lesson, i)
            before = run.view
            missing = next(c for c in range(100) if c not in (before.hand or ()))
            outcome = run.act(Play(missing, 99))
            assert outcome.verdict == "refused" and outcome.refusal is not None
            assert outcome.refusal.code == "not-in-hand" and run.view == before and not run.failed


def test_the_lessons_are_listed_in_file_order_with_unique_ids() -> None:
    assert [lesson.name for lesson in LESSONS] == names()
    assert len(set(ids(LESSONS))) == len(LESSONS)
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+\.toml", lesson.name) for lesson in LESSONS)


# -- together they cover every rule, penalty and hint --------------------------------------------------------


def claimed(topic: str) -> list[Lesson]:
    return [lesson for lesson in LESSONS if topic in lesson.topics]


def test_every_topic_is_taught_by_a_lesson() -> None:
    missing = [topic for topic in TOPICS if not claimed(topic)]
    assert not missing, f"no lesson teaches {missing}"


@pytest.mark.parametrize("topic", [t for t in TOPICS if t.startswith(("you:", "bot:"))])
def test_each_penalty_is_committed_by_the_learner_and_by_a_bot_as_the_engine_judges_it(topic: str) -> None:
    who, offence = topic.split(":")
    for lesson in claimed(topic):
        run, outcomes = solve(lesson)
        you = lesson.table.you
        moves = list(run.setup_moves) + [m for o in outcomes for m in o.moves]
        penalties = [e for m in moves for e in m.events if type(e) is Penalty and e.offence == offence]
        seats = {e.seat for e in penalties}
        assert (you in seats) if who == "you" else bool(seats - {you}), f"{lesson.name}: no {topic} happened"
        if who == "you":  # the learner commits it on a task, and then sees what follows it
            index = next(i for i, s in enumerate(lesson.steps)
                         if isinstance(s, PlayStep) and any(g.offence == offence for g in s.goals))
            after = [e for m in outcomes[index].moves for e in m.events]
            if offence.endswith("-out-of-turn"):  # the missed turn happens while the learner watches
                assert any(type(e) is Skipped and e.seat == you for e in after), f"{lesson.name}: no missed turn"
            else:  # the offence ends the learner's turn
                assert outcomes[index].moves[0].view.turn != you


def test_the_rules_lessons_show_what_they_teach_on_the_engine() -> None:
    def events(topic: str) -> list:
        found = []
        for lesson in claimed(topic):
            _, outcomes = solve(lesson)
            found += [e for o in outcomes for m in o.moves for e in m.events]
        return found

    assert any(type(e) is Passed for e in events("rule:passes"))
    assert any(type(e) is Tied for e in events("rule:ties"))
    wins = [e for e in events("rule:five") if type(e) is Won]
    assert any(len({POSITION[sq][0] for sq in w.line}) > 1 and len({POSITION[sq][1] for sq in w.line}) > 1
               for w in wins), "the five-in-a-line lesson is won on a diagonal"
    for lesson in claimed("rule:partners"):
        run, outcomes = solve(lesson)
        won = next(e for o in outcomes for m in o.moves for e in m.events if type(e) is Won)
        pegged_by = {e.square: e.seat for m in run.setup_moves + outcomes[-1].moves for e in m.events
                     if type(e) is Played}
        assert {pegged_by[sq] for sq in won.line} == set(run.game.partners(won.side)), "partners' pegs together"
    for lesson in claimed("rule:hand-limit"):
        _, outcomes = solve(lesson)
        assert any(o.refusal is not None and o.refusal.code == "hand-full" for o in outcomes)


def test_the_rulebooks_own_example_72_58_20_14_leaves_only_square_4_to_a_card_0_to_4() -> None:
    for lesson in claimed("hint:make-opponent-waste"):
        run = LessonRun(lesson)
        outcome = run.act(lesson.steps[0].solution)  # type: ignore[union-attr]
        you_side = run.game.side_of(lesson.table.you)
        learner, reply = outcome.moves[0], outcome.moves[1]
        board = learner.view.board
        assert {sq for sq in range(100) if board[sq] == you_side} >= {72, 58, 20, 14}
        assert winning_squares(board, you_side) == (4,)
        assert reply.action == Play(reply.action.card, 4) and reply.action.card <= 4  # type: ignore[union-attr]


def test_the_hints_lessons_judge_the_rulebooks_advice() -> None:
    # Low cards kept, high cards on high squares, a double chance, cards kept to block with.
    low = LessonRun(BY_ID["low-cards"])
    assert low.act(Play(2, 75)).verdict == "wrong"
    high = LessonRun(BY_ID["high-on-high"])
    assert high.act(Play(40, 89)).verdict == "wrong"
    fork = LessonRun(BY_ID["directions"])
    outcome = fork.act(Play(40, 49))
    assert len(winning_squares(outcome.moves[0].view.board, 0)) == 2  # two lines of four, two fifth squares
    keep = LessonRun(BY_ID["keep-cards"])
    assert keep.act(Play(70, 80)).verdict == "wrong" and keep.retry() and keep.act(Draw()).right


def test_a_bots_draw_out_of_turn_with_a_full_hand_is_one_offence() -> None:
    # The quiz: "S2 just drew out of turn with a full hand: what happens?" (docs/rules.md §10).
    run = played_to(BY_ID["draw-out-of-turn"], 1)
    assert run.game.hand(1) and len(run.game.hand(1)) == 5 and run.game.turn == 0
    outcome = run.answer(1)
    (move,) = outcome.moves
    assert [e.offence for e in move.events if type(e) is Penalty] == ["draw-out-of-turn"]
    assert move.view.skips[1] == 1 and len(run.game.hand(1)) == 5


# -- the words they cite ----------------------------------------------------------------------------------------


def normal(text: str) -> str:
    return " ".join(text.split())


#: The rulebook's headings, as printed.
HEADINGS = ("HOW TO PLAY THE GAME OF 99", "THE GAME OF 99 FOR TWO OR THREE PLAYERS",
            "THE GAME OF 99 FOR FOUR OR SIX PLAYERS", "PENALTIES", "SOME PLAYING HINTS", "FINALLY, A WORD ABOUT TIES")


def test_the_kept_rulebook_is_the_source_document() -> None:
    text = RULEBOOK.read_text(encoding="utf-8")
    assert "SOME PLAYING HINTS" in text and "PENALTIES" in text
    if SOURCE.exists():  # on a clone without the source beside it, the copy is all there is
        assert text == SOURCE.read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_lesson_quotes_the_rulebook_word_for_word_under_its_heading(lesson: Lesson) -> None:
    book = normal(RULEBOOK.read_text(encoding="utf-8"))
    quote = normal(lesson.quote)
    assert quote in book, f"{lesson.name}: not the rulebook's words: {quote!r}"
    above = book[:book.index(quote)]
    nearest = max(HEADINGS, key=above.rfind)
    assert lesson.heading == nearest, f"{lesson.name}: the quote stands under {nearest}"


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_lesson_names_a_section_of_the_rules_page(lesson: Lesson) -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert f"## {lesson.rules[1:]}. " in page


# -- the reader and the scripts name what is wrong ---------------------------------------------------------------

GOOD = """
title = "T"
summary = "S"
topics = ["rule:cards"]
explain = "E"
rules = "§2"
[rulebook]
heading = "H"
quote = "Q"
[table]
players = 2
names = ["Bo"]
deck = [40, 90]
setup = ["S0 draw 40", "S1 draw 90"]
[[step]]
task = "Peg 41."
goal = { square = 41 }
solution = "play 40 on 41"
"""


@pytest.mark.parametrize(("change", "field"), [
    (("players = 2", "players = 5"), "table.players"),
    (('names = ["Bo"]', 'names = ["Bo", "Cy"]'), "table.names"),
    (("deck = [40, 90]", "deck = [40, 40]"), "table.deck"),
    (('"S1 draw 90"', '"S7 draw"'), "table.setup[2]"),
    (('"S1 draw 90"', '"S1 jump"'), "table.setup[2]"),
    (("goal = { square = 41 }", "goal = { square = 141 }"), "step[1].goal.square"),
    (("goal = { square = 41 }", 'goal = { offence = "cheating" }'), "step[1].goal.offence"),
    (("goal = { square = 41 }", "goal = { colour = 1 }"), "step[1].goal.colour"),
    (('solution = "play 40 on 41"', 'solution = "pass"'), "step[1].solution"),
    (('topics = ["rule:cards"]', 'topics = ["rule:chess"]'), "topics"),
    (('rules = "§2"', 'rules = "2"'), "rules"),
    (('quote = "Q"', ""), "rulebook.quote"),
    (('title = "T"', 'title = "T"\nauthor = "me"'), "author"),
])
def test_a_bad_field_is_named_with_its_file(change: tuple[str, str], field: str) -> None:
    text = GOOD.replace(*change)
    with pytest.raises(LessonError) as caught:
        parse(text, "99-bad.toml")
    assert caught.value.name == "99-bad.toml" and caught.value.field == field, str(caught.value)
    assert str(caught.value).startswith(f"99-bad.toml: {field}: ")


def test_a_scripted_action_the_engine_refuses_is_a_lesson_error_naming_it() -> None:
    lesson = parse(GOOD.replace('"S1 draw 90"', '"S1 play 90 on 95"'), "99-bad.toml")
    with pytest.raises(LessonError, match=r"99-bad.toml: table.setup\[2\] 'S1 play 90 on 95': the engine refuses it: "
                                          r"S1 does not hold card 90"):
        LessonRun(lesson)
    drawn = parse(GOOD.replace('"S1 draw 90"', '"S1 draw 7"'), "99-bad.toml")
    with pytest.raises(LessonError, match="the deck gave card 90, not 7"):
        LessonRun(drawn)


def test_a_quiz_and_a_repeat_read_as_written() -> None:
    text = GOOD.replace('setup = ["S0 draw 40", "S1 draw 90"]',
                        'setup = [{ repeat = 2, actions = ["S0 draw", "S1 draw"] }, "S0 discard last", "S1 discard last"]')
    text += '''
[[step]]
question = "Q?"
choices = ["a", "b"]
answer = 2
why = ["not a", ""]
then = ["S1 bot"]
'''
    lesson = parse(text.replace("play 40 on 41", "play 40 on 45").replace("square = 41", "square = 45"), "x.toml")
    assert len(lesson.setup) == 6 and lesson.setup[-1].last
    run = LessonRun(lesson)
    assert run.view.hand == (40,) and len(run.view.discards[0]) == len(run.view.discards[1]) == 1
    assert run.act(Play(40, 45)).verdict == "next"
    outcome = run.answer(0)
    assert outcome.verdict == "wrong" and outcome.why == "not a" and len(outcome.moves) == 1  # the bot moved anyway
    with pytest.raises(ValueError, match="retry"):
        run.answer(1)
    run.retry()
    assert run.answer(1).verdict == "done"
    with pytest.raises(ValueError, match="done"):
        run.act(Discard(40))
    assert run.restart().hand == (40,) and run.step_index == 0
