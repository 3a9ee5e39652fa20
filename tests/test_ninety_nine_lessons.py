"""Ninety-Nine's lessons (board99/ninety_nine/lessons): every lesson parsed, solved and checked on the engine, its
wrong answers refused or explained, the topics they must cover together, the documents' words they quote, and
the reader's errors naming the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from board99.ninety_nine.actions import Draw, Play
from board99.ninety_nine.lessons import (
    DOCUMENTS,
    TOPICS,
    Lesson,
    LessonError,
    LessonRun,
    PlayStep,
    QuizStep,
    catalogue,
    load,
    names,
    parse,
    solve,
)
from board99.ninety_nine.lessons.check import check_lesson, other_answers

ROOT = Path(__file__).resolve().parents[1]
#: The four seed documents of Ninety-Nine, kept with the tests so the quotes are checked on any clone ...
COPIES = ROOT / "tests" / "data" / "ninety-nine-seeds"
#: ... and the source documents beside the checkout, where they are (the copies must not drift from them).
SEEDS = ROOT.parent / "shared" / "seeds"
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


# -- every lesson is solvable, checked, and its wrong answers refused or explained ------------------------------


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_the_solution_of_every_lesson_is_right_at_every_step(lesson: Lesson) -> None:
    run, outcomes = solve(lesson)
    assert [o.verdict for o in outcomes] == ["next"] * (len(lesson.steps) - 1) + ["done"]
    assert run.done and run.step is None


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_no_lesson_puts_the_learner_out(lesson: Lesson) -> None:
    run, _ = solve(lesson)
    assert not run.view.out[lesson.table.you] and run.view.winner in (None, lesson.table.you)


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_lesson_passes_the_check_on_the_engine(lesson: Lesson) -> None:
    checks = check_lesson(lesson)
    assert len(checks) == len(lesson.steps)
    assert all(c.ok for c in checks), "\n".join(c.line() for c in checks)


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_right_answer_leaves_the_later_steps_solvable(lesson: Lesson) -> None:
    # Lesson 27 once took a queen, a jack or an 8 at its first step but only a jack or less at its second: after
    # the jack, the queen left in hand was called wrong, and its words named a total the 8 had not made.
    assert other_answers(lesson) == []


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_wrong_answer_is_refused_or_explained_and_can_be_tried_again(lesson: Lesson) -> None:
    tried = 0
    for i, step in enumerate(lesson.steps):
        answers: list[object] = ([c for c in range(len(step.choices)) if c != step.answer]
                                 if isinstance(step, QuizStep) else [w.example for w in step.wrong if w.example])
        for answer in answers:
            run = played_to(lesson, i)
            before = run.view
            if isinstance(answer, int):
                outcome = run.answer(answer)
                assert isinstance(step, QuizStep) and outcome.why == step.why[answer]
            else:
                assert isinstance(answer, Play | Draw) and isinstance(step, PlayStep)
                outcome = run.act(answer)
                assert outcome.why in [w.why for w in step.wrong]
            tried += 1
            assert not outcome.right and outcome.why, (lesson.name, i + 1, answer, outcome)
            if outcome.verdict == "refused":  # the engine said no: nothing changed, and it says why
                assert outcome.refusal is not None and outcome.refusal.message and run.view == before
            else:
                assert outcome.verdict == "wrong" and run.failed
                assert run.retry() == before and not run.failed
    assert tried, f"{lesson.name}: no wrong answer to try (a [[step.wrong]] with an example, or a question)"


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_a_card_not_held_is_refused_by_the_engine_and_changes_nothing(lesson: Lesson) -> None:
    for i, step in enumerate(lesson.steps):
        if isinstance(step, PlayStep):
            run = played_to(lesson, i)
            before = run.view
            missing = next(c for c in ("AS", "AH", "AD", "AC", "2S") if c not in (before.hand or ()))
            outcome = run.act(Play(missing))
            assert outcome.verdict == "refused" and outcome.refusal is not None
            # (a task where the learner draws, not on turn, meets the turn's refusal first)
            code = "not-in-hand" if before.my_turn else "out-of-turn"
            assert outcome.refusal.code == code and run.view == before and not run.failed


def test_the_lessons_are_listed_in_file_order_with_unique_ids() -> None:
    assert [lesson.name for lesson in LESSONS] == names()
    assert len(set(ids(LESSONS))) == len(LESSONS)
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+\.toml", lesson.name) for lesson in LESSONS)


def test_no_lesson_shares_an_id_with_a_peg_board_lesson() -> None:
    # The progress file keeps the ids of both games' lessons in one list.
    from board99.lessons import catalogue as peg_catalogue

    assert not set(ids(LESSONS)) & {lesson.id for lesson in peg_catalogue()}


# -- together they cover what issue 21 asks ------------------------------------------------------------------


def test_every_topic_is_taught_by_a_lesson() -> None:
    missing = [topic for topic in TOPICS if not any(topic in lesson.topics for lesson in LESSONS)]
    assert not missing, f"no lesson teaches {missing}"


def test_each_rule_sets_lesson_plays_at_a_table_of_that_rule_set() -> None:
    for topic, rules in (("set:glengariff", "glengariff"), ("set:convention", "convention"),
                         ("set:tokens", "tokens"), ("set:three-card", "three-card")):
        lesson = next(lesson for lesson in LESSONS if topic in lesson.topics)
        assert lesson.table.rules == rules and lesson.document == lesson.table.build().rule_set.source


def events_of(lesson: Lesson) -> set[str]:
    """The kinds of every event the lesson's solution (and its setup) caused."""
    run, outcomes = solve(lesson)
    return {e.kind for e in run.setup_events} | {e.kind for o in outcomes for m in o.moves for e in m.events}


def test_the_rules_lessons_show_what_they_teach_on_the_engine() -> None:
    assert {"owes", "played"} <= events_of(BY_ID["glengariff"])  # the queen chain: Bo owes two cards
    assert "skipped" in events_of(BY_ID["tokens-cards"])
    assert {"reversed", "round-over", "lost-token"} <= events_of(BY_ID["three-card"])
    assert {"turned-up", "reversed"} <= events_of(BY_ID["turn-up"])
    assert {"lost-token", "out", "round-over"} <= events_of(BY_ID["tokens"])
    out = events_of(BY_ID["out"])
    assert "out" in out and "round-over" not in out  # no tokens: out at once, and the same deal goes on
    assert "forgot" in events_of(BY_ID["forgot-draw"])  # 002's chain: Cy drew before Bo
    lesson = BY_ID["forgot-draw"]
    assert lesson.table.mode == "penalty" and lesson.table.rules == "convention"


def test_the_turned_up_card_is_the_engines_own_deal() -> None:
    lesson = BY_ID["turn-up"]
    assert lesson.position.deal
    run = LessonRun(lesson)
    assert run.view.top == lesson.position.turned_up and run.view.turn == lesson.table.you
    assert run.view.total == 7 and run.view.direction == -1


# -- the documents' own words ----------------------------------------------------------------------------------


def _plain(text: str) -> str:
    return " ".join(text.split())


def test_the_copies_of_the_seed_documents_are_the_documents() -> None:
    copies = sorted(COPIES.glob("*.txt"))
    assert [p.name[:3] for p in copies] == sorted(DOCUMENTS)
    for copy in copies:
        source = SEEDS / copy.name
        if source.exists():  # on a clone without the sources beside it, the copy is all there is
            assert copy.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")


@pytest.mark.parametrize("lesson", LESSONS, ids=ids(LESSONS))
def test_every_quote_is_its_documents_own_words(lesson: Lesson) -> None:
    (document,) = COPIES.glob(f"{lesson.document}_*.txt")
    assert _plain(lesson.quote) in _plain(document.read_text(encoding="utf-8")), lesson.name


def test_every_lesson_names_a_section_of_the_rules_page() -> None:
    page = (ROOT / "docs" / "ninety-nine.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ (.+)$", page, flags=re.M))
    assert all(lesson.section in headings for lesson in LESSONS), [
        (lesson.name, lesson.section) for lesson in LESSONS if lesson.section not in headings]
    assert set(DOCUMENTS) == {"000", "002", "003", "004"}


# -- the reader's errors name the field ----------------------------------------------------------------------


GOOD = (ROOT / "board99" / "ninety_nine" / "lessons" / "data" / "04-three-card.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("change", "field", "words"), [
    (('rules = "three-card"', 'rules = "bridge"'), "table.rules", "not a rule set"),
    (('players = 3\nrules = "three-card"\nnames = ["Bo", "Cy"]', 'players = 2\nrules = "three-card"\nnames = ["Bo"]'),
     "table.players", "3 to 6 players"),
    (('players = 3', 'players = 3\noptions = { tokens = 9 }'), "table.options.tokens", "not one of"),
    (('total = 97', 'total = 120'), "position.total", "-200 to 99"),
    (('["9H", "KD", "5C"]', '["9H", "KD", "KD"]'), "position.hands", "placed 2 times"),
    (('["9H", "KD", "5C"]', '["9H", "KD", "5C", "2C"]'), "position.hands[1]", "deals 3"),
    (('["9H", "KD", "5C"]', '["9H", "KD", "ZZ"]'), "position.hands[1]", "not a card"),
    (('solution = "play 9H"', 'solution = "play 9H loudly"'), "step[1].solution", "not an action"),
    (('goal = { rank = "9", total = 97 }', 'goal = { colour = "red" }'), "step[1].goal.colour", "not a condition"),
    (('reply = ["S1 play 4S"]', 'reply = ["S1 play 4C"]'), "step[1].reply[1]", "does not hold"),
    (('reply = ["S1 play 4S"]', 'reply = ["S5 play 4C"]'), "step[1].reply[1]", "not at a 3-player"),
    (('document = "004"', 'document = "001"'), "source.document", "quote one of"),
    (('topics = ["set:three-card"]', 'topics = ["set:bridge"]'), "topics", "not a topic"),
    (('dealer = 2', 'dealer = 2\nshuffle = true'), "position.shuffle", "not a field of the position"),
])
def test_a_bad_lesson_is_refused_naming_the_file_and_the_field(change: tuple[str, str], field: str,
                                                               words: str) -> None:
    old, new = change
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    with pytest.raises(LessonError) as info:
        solve(parse(text, "04-three-card.toml"))  # a reply is carried out once the step is solved
    assert info.value.field.split(" ")[0] == field and words in info.value.message, str(info.value)
    assert str(info.value).startswith("04-three-card.toml: ")


def test_a_seat_to_play_that_holds_nothing_that_fits_is_refused() -> None:
    text = GOOD.replace('["9H", "KD", "5C"]', '["8H", "7D", "5C"]', 1)
    with pytest.raises(LessonError, match="holds nothing that fits"):
        LessonRun(parse(text, "x.toml"))


def test_a_dealt_position_is_checked_against_the_engines_deal() -> None:
    text = (ROOT / "board99" / "ninety_nine" / "lessons" / "data" / "05-turn-up.toml").read_text(encoding="utf-8")
    with pytest.raises(LessonError, match="turns up 7C, not 4H"):
        LessonRun(parse(text.replace('turned_up = "7C"', 'turned_up = "4H"'), "x.toml"))
    assert load("05-turn-up.toml").position.deal
