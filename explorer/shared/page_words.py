"""The words the page's JavaScript writes itself, declared once, in English, for the catalogs.

The page's JavaScript (``explorer/app/static/*.js``) writes a few words of its own: the speed
and step labels, the tooltips of a panel's title, the 3-D view's button, the question's card,
the status line while it waits, the lecture's badge and address, the presenter view and the
follower's page. Each is looked up there by key (``pageWord("q_reveal", "Reveal")``,
``words.js``), with the English beside the lookup as the fallback; the kernel sends
:func:`page_words`, the dictionary of every key in the page's language, as the page figure's
and the page bridge's ``words`` traits (the bridge's for the presenter view), again at each
change of language. The English here and in the JavaScript are the same (a test reads the
scripts). Placeholders are ``{name}``, filled by the page after the lookup.

A word counted in the page (``{n} answers``) has a key for one (``…_1``) and one for more:
the five languages offered need no other form.
"""

from __future__ import annotations

from .i18n import N_, tr

#: key -> the English words (a catalog's key), in the order of the scripts that use them.
PAGE_WORDS = {
    # enlarge.js
    "enlarge_back": N_("Click (or press z or Esc): every panel again"),
    "enlarge": N_("Click (or press z): this panel large"),
    # follow.js
    "following_title": N_("Following the lecture: {title}"),
    "following_lecture": N_("Following the lecture"),
    "no_figure": N_("The lecturer shows no figure just now."),
    "following_figure": N_("Following the lecturer's figure."),
    "places_free": N_("{free} of {cap} places free"),
    "places_taken": N_("all {cap} places are taken just now"),
    "waiting_lecturer": N_("Waiting for the lecturer…"),
    "sorry": N_("Sorry: {reason}. Try again in a minute."),
    "disconnected": N_("Disconnected: {reason}. Reload the page to follow again."),
    "too_large": N_("this page sent a message too large"),
    "lost": N_("The connection to the lecture was lost; trying again…"),
    # input.js
    "reset_view": N_("reset view"),
    "reset_view_tip": N_("Turn the 3-D view back (key v); drag or Shift + arrows turn it"),
    # lecture.js
    "not_presenting": N_("Not presenting: {reason}. Reload the page to present again."),
    "refused": N_("refused by the server"),
    "not_presenting_short": N_("Not presenting · "),
    "reload": N_("reload"),
    "presenting": N_("Presenting · "),
    "following": N_(" following"),
    "presenting_tip": N_(
        "This page presents: students following the lecture see its figure. Click (or press A) "
        "to show them the address to follow, with a QR code."),
    "address": N_("The students' address"),
    "address_head": N_("Follow the lecture on your laptop or phone:"),
    "qr_alt": N_("QR code of {url}"),
    "address_local": N_(
        "This address works on this computer only: serve the hall with --ip, or through a proxy "
        "(docs/serving.md), and open the presenter's address by that name."),
    "address_close": N_("Press A or click to close."),
    "follow_again": N_("Follow the lecture"),
    # pagefigure.js
    "run_controls": N_("Run controls"),
    "speed": N_("Play speed, steps per second"),
    "steps_per_s": N_("steps/s"),
    "step": N_("step"),
    "pause": N_("Pause"),
    "play": N_("Play"),
    "step_of": N_("step {k} of {n}"),
    # presenter.js
    "pv_none": N_("No playlist yet"),
    "pv_slide": N_("Slide {k} of {n}"),
    "pv_slides_1": N_("{n} slide, none opened yet"),
    "pv_slides": N_("{n} slides, none opened yet"),
    "pv_last": N_("This is the last slide."),
    "pv_drawing": N_("Drawing the next slide…"),
    "pv_no_picture": N_("No picture of this slide."),
    "pv_title": N_("Presenter view · Perceptron Explorer"),
    "pv_clock": N_("Time since the lecture began"),
    "pv_restart": N_("Restart clock"),
    "pv_next": N_("Next: "),
    "pv_next_alt": N_("The next slide"),
    "pv_no_notes": N_("No notes for this slide."),
    # question.js
    "q_right": N_("Right: {answer}."),
    "q_wrong": N_("Not this time: the answer is {answer}."),
    "q_told": N_("The answer: {answer}."),
    "q_change_follower": N_("You may change your answer until the lecturer reveals."),
    "q_tap": N_("Tap your answer; the lecturer reveals."),
    "q_change": N_("You may change your answer, then Reveal."),
    "q_answer": N_("Answer, then Reveal."),
    "q_place_right": N_("Right: the boundary swept over your place."),
    "q_place_wrong": N_("Not this time: the boundary did not sweep over your place."),
    "q_swept_1": N_("The boundary swept over {k} of {n} place."),
    "q_swept": N_("The boundary swept over {k} of {n} places."),
    "q_dot_follower": N_(
        "Your dot is on the plane: tap elsewhere to move it until the lecturer reveals."),
    "q_dot": N_("Your dot is on the plane: click elsewhere to move it, then Reveal."),
    "q_tap_place": N_("Tap a place on the data plane; the lecturer reveals."),
    "q_click_place": N_("Click a place on the data plane, then Reveal."),
    "q_sketch": N_("The labelling asked about: +1 discs, −1 squares, numbered"),
    "q_hidden": N_("Hidden until the reveal"),
    "q_answers_1": N_("{n} answer"),
    "q_answers": N_("{n} answers"),
    "q_reveal": N_("Reveal"),
    "q_reveal_tip": N_("Take the step and show the answer"),
    "q_close": N_("Close"),
    "q_close_tip": N_("Close the question (Esc)"),
    "q_withdraw": N_("Withdraw"),
    "q_withdraw_tip": N_("Close the question unanswered (Esc)"),
    # transport.js
    "waiting": N_(" · waiting for steps {first}–{last} from the kernel…"),
}


def page_words() -> dict[str, str]:
    """Every key of :data:`PAGE_WORDS` with its words in the current language."""
    return {key: tr(english) for key, english in PAGE_WORDS.items()}
