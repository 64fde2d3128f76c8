"""The room's answers to a question (issue 33, item 1, the room; explorer.serving.answers): one
per follower, changeable until the reveal, dropped after it and when stale, unknown, oversized,
malformed or from a follower that left, counted in the log by reason with no one named; the
presenter hears the tally batched; on tornado in-process like tests/test_lecture.py."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from test_lecture import KEY, served

from explorer.serving import answers as answers_mod
from explorer.serving.answers import MAX_ANSWER_BYTES, Answers
from explorer.serving.lecture import Lecture, decode, encode
from explorer.serving.lecture_web import KEY_COOKIE


def question(qid=3, phase="open", choices=(("yes", "Yes"), ("no", "No"))):
    """A question trait as the presenter's page publishes it (QuestionState.page_json)."""
    return {"id": qid, "name": "next_update", "words": "Will the next point trigger an update?",
            "choices": [list(c) for c in choices], "phase": phase, "answer": None,
            "tally": {k: 0 for k, _ in choices}, "truth": None if phase == "open" else "yes"}


def said(fig=1, qid=3, choice="yes", **extra) -> str:
    return json.dumps({"t": "answer", "fig": fig, "id": qid, "choice": choice, **extra})


def asked(fig=1, **kw) -> Answers:
    book = Answers()
    book.published(fig, question(**kw))
    return book


# ------------------------------------------------------------------ the bookkeeping
def test_one_answer_per_follower_the_latest_kept_until_the_reveal():
    book = asked()
    a, b, c = object(), object(), object()
    for who, choice in ((a, "yes"), (b, "no"), (c, "yes"), (a, "no"), (a, "no")):
        assert book.take(who, said(choice=choice), present=True) is None
    assert book.polls[1].tally() == {"yes": 1, "no": 2}  # a changed its mind: counted once
    assert book.tallies() == [{"tally": {"yes": 1, "no": 2}, "fig": 1, "id": 3}]
    assert book.tallies() == []  # heard: nothing due until an answer changes something
    book.take(a, said(choice="no"), present=True)
    assert book.tallies() == []  # the same answer again changes nothing
    book.published(1, question(phase="revealed"))
    assert book.take(b, said(choice="yes"), present=True) == "revealed"
    assert book.take(object(), said(choice="yes"), present=True) == "revealed"
    assert book.polls[1].tally() == {"yes": 1, "no": 2} and book.tallies() == []
    assert not book.dropped.keys() - {"revealed"} and book.dropped["revealed"] == 2


@pytest.mark.parametrize("message, why", [
    (said(qid=2), "stale"),
    (said(qid=4), "stale"),
    (said(choice="maybe"), "choice"),
    (said(fig=2), "no question"),
    (said(pad="x" * MAX_ANSWER_BYTES), "oversized"),
    ("é" * (MAX_ANSWER_BYTES // 2 + 1), "oversized"),  # bytes, not characters
    ("not json", "malformed"),
    ("[1, 2]", "malformed"),
    (json.dumps({"t": "vote", "fig": 1, "id": 3, "choice": "yes"}), "malformed"),
    (json.dumps({"t": "answer", "fig": 1, "id": "3", "choice": "yes"}), "malformed"),
    (json.dumps({"t": "answer", "fig": 1, "id": True, "choice": "yes"}), "malformed"),
    (json.dumps({"t": "answer", "fig": 1, "id": 3, "choice": 1}), "malformed"),
    (json.dumps({"t": "answer", "fig": None, "id": 3, "choice": "yes"}), "malformed"),
    (json.dumps({"t": "answer", "id": 3, "choice": "yes"}), "malformed"),
    (b"\x00\x00\x00\x02{}", "malformed"),  # a binary frame: followers send text
])
def test_what_is_not_an_answer_to_the_open_question_is_dropped_and_counted(message, why):
    book = asked()
    assert book.take(object(), message, present=True) == why
    assert book.dropped == {why: 1}
    assert book.polls[1].tally() == {"yes": 0, "no": 0} and book.tallies() == []


def test_a_follower_that_left_no_longer_counts_and_its_words_are_dropped():
    book = asked()
    a, b = object(), object()
    book.take(a, said(choice="yes"), present=True)
    book.take(b, said(choice="no"), present=True)
    book.tallies()
    book.left(a)
    assert book.tallies() == [{"tally": {"yes": 0, "no": 1}, "fig": 1, "id": 3}]
    assert book.take(a, said(choice="yes"), present=False) == "left"
    assert book.polls[1].tally() == {"yes": 0, "no": 1}
    # after the reveal, the tally is what was revealed: leaving does not change it
    book.published(1, question(phase="revealed"))
    book.left(b)
    assert book.polls[1].tally() == {"yes": 0, "no": 1} and book.tallies() == []


def test_a_new_question_forgets_the_answers_and_none_ends_them():
    book = asked()
    a = object()
    book.take(a, said(choice="yes"), present=True)
    book.published(1, question(qid=3))  # the same question published again (a new tally)
    assert book.polls[1].tally() == {"yes": 1, "no": 0}
    book.published(1, question(qid=4, choices=(("a", "A"), ("b", "B"), ("c", "C"))))
    assert book.polls[1].tally() == {"a": 0, "b": 0, "c": 0} and book.tallies() == []
    assert book.take(a, said(qid=3), present=True) == "stale"
    assert book.take(a, said(qid=4, choice="c"), present=True) is None
    book.published(1, {})
    assert book.polls == {} and book.tallies() == []
    assert book.take(a, said(qid=4, choice="c"), present=True) == "no question"
    for bad in ({"id": 5, "choices": []}, {"id": "5", "choices": [["a", "A"]]},
                {"id": 5, "choices": [["a", "A"]] * 17}, {"id": 5, "choices": [[1, "A"]]}):
        book.published(1, bad)
        assert book.polls == {}, bad


def test_the_log_line_counts_by_reason_and_names_no_one():
    book = asked()
    for message in (said(qid=1), said(qid=1), "nonsense", said(choice="x" * 300)):
        book.take(object(), message, present=True)
    book.take(object(), said(), present=False)
    line = book.report()
    assert line == "lecture: answers dropped: malformed 1, oversized 1, stale 2, left 1"
    assert book.report() is None  # counted again from nothing


def test_the_lecture_keeps_the_poll_of_its_figures_question_and_who_follows():
    lec = Lecture()
    lec.publish(decode(encode({"t": "state", "fig": 1, "set": {"question": question()}})))
    a, stranger = object(), object()
    lec.join(a)
    assert lec.answer(a, said(choice="no")) is None
    assert lec.answer(stranger, said(choice="yes")) == "left"  # not a follower (or no more)
    assert lec.answers.polls[1].tally() == {"yes": 0, "no": 1}
    lec.leave(a)
    assert lec.answers.polls[1].tally() == {"yes": 0, "no": 0}
    assert lec.answer(a, said(choice="no")) == "left"
    # a late follower gets the question with the figure's other traits
    lec.publish(decode(encode({"t": "focus", "fig": 1, "blackout": False, "title": "P"})))
    box = lec.join(object())
    heads = [decode(f).header for _, f in box.frames]
    assert heads[1]["set"]["question"]["id"] == 3


# ------------------------------------------------------------------ on the sockets
async def _until(pred, timeout=5.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


@served
async def test_the_presenter_hears_the_tally_batched_and_drops_go_to_the_log(srv):
    saved = answers_mod.DROP_LOG_S
    answers_mod.DROP_LOG_S = 0.2
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logging.getLogger("explorer.lecture").addHandler(handler)
    try:
        pub = await srv.ws("/lecture/publish", f"{KEY_COOKIE}={KEY}")
        assert "followers" in json.loads(await pub.read_message())
        pub.write_message(encode({"t": "state", "fig": 1, "set": {"question": question()}}),
                          binary=True)
        a, b = await srv.ws("/lecture/follow"), await srv.ws("/lecture/follow")
        await _until(lambda: 1 in srv.lecture.answers.polls and len(srv.lecture.followers) == 2)
        a.write_message(said(choice="yes"))
        b.write_message(said(choice="yes"))
        a.write_message(said(choice="no"))  # changed at once: the same batch
        heard = []
        while not heard or heard[-1] != {"tally": {"yes": 1, "no": 1}, "fig": 1, "id": 3}:
            said_now = json.loads(await pub.read_message())
            if "tally" in said_now:
                heard.append(said_now)
        assert len(heard) == 1, heard  # three answers, one message
        pub.write_message(encode({"t": "state", "fig": 1,
                                  "set": {"question": question(phase="revealed")}}), binary=True)
        await _until(lambda: not srv.lecture.answers.polls[1].open)
        b.write_message(said(choice="no"))  # after the reveal
        a.write_message("x" * 1000)  # oversized, under the socket's limit: not closed
        a.write_message(said(qid=2))
        await _until(lambda: any("answers dropped" in r.getMessage() for r in records))
        line = next(r.getMessage() for r in records if "answers dropped" in r.getMessage())
        assert line == "lecture: answers dropped: oversized 1, stale 1, revealed 1"
        assert srv.lecture.answers.polls[1].tally() == {"yes": 1, "no": 1}
        assert len(srv.lecture.followers) == 2  # nobody was closed for it
        for s in (pub, a, b):
            s.close()
    finally:
        logging.getLogger("explorer.lecture").removeHandler(handler)
        answers_mod.DROP_LOG_S = saved


# ------------------------------------------------------------------ a question answered by a place
def placed(qid=5, phase="open"):
    """'Where will the boundary move?' as the presenter's page publishes it: a place answers."""
    return {**question(qid, phase, choices=(("swept", "Swept over"), ("kept", "Not swept"))),
            "name": "boundary", "kind": "point",
            "point": {"panel": "plane", "box": [-2.0, 2.0, -1.0, 3.0], "before": [1, 0.5, 0]}}


def put(point, fig=1, qid=5, **extra) -> str:
    return json.dumps({"t": "answer", "fig": fig, "id": qid, "point": point, **extra})


def test_a_place_one_per_follower_rounded_counted_and_sent_with_the_tally():
    book = Answers()
    book.published(1, placed())
    a, b = object(), object()
    assert book.take(a, put([0.123456789, 2.0]), present=True) is None
    assert book.take(b, put([1.0, -1.0]), present=True) is None
    assert book.take(a, put([0.5, 0.5]), present=True) is None  # a changed its mind
    assert book.tallies() == [{"tally": {"answers": 2}, "fig": 1, "id": 5,
                               "points": [[0.5, 0.5], [1.0, -1.0]]}]
    assert book.take(b, put([0.1234567, 0.0]), present=True) is None
    assert book.tallies()[0]["points"][1] == [0.1235, 0.0]  # rounded: small, no finer than a click
    book.published(1, placed(phase="revealed"))
    assert book.take(a, put([0.0, 0.0]), present=True) == "revealed"


@pytest.mark.parametrize("message", [
    put([9.0, 0.0]), put([0.0, -1.5]), put([0.0]), put([0.0, 1.0, 2.0]), put("0,1"),
    put([True, 0.0]), put(None), put(["0", "1"]), said(qid=5, choice="swept"),
    '{"t": "answer", "fig": 1, "id": 5, "point": [NaN, 0]}',
])
def test_a_place_outside_the_plane_or_not_two_numbers_is_dropped_as_place(message):
    book = Answers()
    book.published(1, placed())
    assert book.take(object(), message, present=True) == "place"
    assert book.dropped == {"place": 1} and book.tallies() == []
    assert "place 1" in book.report()


def test_a_place_for_a_choice_question_is_dropped_and_the_cap_on_dots():
    book = asked()
    assert book.take(object(), put([0.0, 0.0], qid=3), present=True) == "place"
    book = Answers()
    book.published(1, placed())
    for i in range(answers_mod.MAX_DOTS + 20):
        book.take(object(), put([0.001 * i, 0.0]), present=True)
    said_ = book.tallies()[0]
    assert said_["tally"] == {"answers": answers_mod.MAX_DOTS + 20}
    assert len(said_["points"]) == answers_mod.MAX_DOTS
    assert answers_mod.poll_of({**placed(), "point": {"box": [1, 0, 0, 1]}}) is None
