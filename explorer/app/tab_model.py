"""What every tab's model shares (traitlets only, no widgets): the refusal of a change, as a
value; a count of the changes applied (a view clears an old refusal on it); and the tab's state
made from its :class:`~explorer.app.state.StateSpec`.

A model is written ``class XorModel(state_model(SPEC)):``. :func:`state_model` gives it one
trait per field of the spec (:func:`state_traits`: the field's kind gives the trait's type, its
default the trait's default), and :class:`TabModel` reads and writes the whole state from the
spec: :meth:`TabModel.get_state`, :meth:`TabModel.set_state` (the state is checked once, by
``spec.validate``; a bad one is refused as a :class:`Refusal` and the state kept) and
:meth:`TabModel.reset`. A model writes only what is its own: :meth:`TabModel._own_state` (fields
kept in another form, such as points held as arrays) and :meth:`TabModel._apply_state` (how a
valid state is built and committed).

The traits live here, not in :mod:`explorer.app.state`: that module stays free of traitlets (it
is loaded on its own by the tests of links and files). The traits hold any value of their type;
a field's bounds and choices are checked once, by the spec, where values come in.
"""

from __future__ import annotations

from dataclasses import dataclass

from traitlets import Bool, Float, HasTraits, Instance, Int, List, Unicode, observe

from ..shared.i18n import N_, sentences, tr

__all__ = ["Refusal", "TabModel", "state_model", "state_traits", "field_trait"]


@dataclass(frozen=True)
class Refusal:
    """A change that was not applied: why, and what was kept instead.

    Parameters
    ----------
    why : str
        What was wrong with the input, saying what was expected and what was got
        ("η must be a number > 0; got 'abc'").
    kept : str or None
        What stays as it was ("settings", "data", "layout"); None: nothing to say.
    """

    why: str
    kept: str | None = None

    @property
    def text(self) -> str:
        """The sentences the page shows, in the page's language: ``why`` as its maker
        translated it, or, declared once with ``N_`` (a catalog's key), translated here."""
        why = tr(self.why) if self.why else self.why  # (gettext's "" is its header)
        said = tr("Not applied: {why}.").format(why=why.rstrip("."))
        if not self.kept:
            return said
        kept = _KEPT.get(self.kept)
        return sentences([said, tr(kept) if kept else f"Kept the previous {self.kept}."])


#: What a refusal keeps, said in a sentence of its own.
_KEPT = {"settings": N_("Kept the previous settings."), "data": N_("Kept the previous data."),
         "layout": N_("Kept the previous layout.")}


#: The trait of each kind of field (:data:`explorer.app.state_field.KINDS`), given the default.
_TRAIT_OF_KIND = {
    "int": Int,
    "float": Float,
    "bool": Bool,
    "choice": Unicode,
    "text": Unicode,
    "choices": lambda d: List(Unicode(), default_value=list(d)),
    "ints": lambda d: List(Int(), default_value=list(d)),
    "floats": lambda d: List(Float(), default_value=list(d)),
    "points": lambda d: List(default_value=[tuple(p) for p in d]),
}


def field_trait(field, default=None):
    """The trait that holds ``field``'s value: its kind's type, with ``default`` (the field's
    own when None) as default value. No bounds: the spec checks values where they come in."""
    value = field.parse(field.default if default is None else default)
    return _TRAIT_OF_KIND[field.kind](value).tag(field=field.name)


def state_traits(spec, *, without=()) -> dict:
    """One trait per field of ``spec`` (a :class:`~explorer.app.state.StateSpec`, or any object
    with ``names``, ``field(name)`` and ``defaults()``), in the declared order, with the
    defaults of ``spec.defaults()``; the fields named in ``without`` are left out."""
    unknown = set(without) - set(spec.names)
    if unknown:
        raise ValueError(f"{spec.tab} has no fields {sorted(unknown)}; expected some of {spec.names}")
    defaults = spec.defaults()
    return {name: field_trait(spec.field(name), defaults[name])
            for name in spec.names if name not in without}


class TabModel(HasTraits):
    """Base of the tab models.

    ``refusal`` is the last change refused (a :class:`Refusal`; None once something else is
    said or the next valid change comes); ``message`` is what the tab says about its state: the
    refusal's text, or a note about the run. ``applied`` counts the changes of state that were
    applied (a setting, an edit, a loaded state, a run started): the next valid change after a
    refusal, on which the refusal goes.

    A model made by :func:`state_model` has ``spec`` (its declared state), one trait per field
    and ``params`` (the fields :meth:`update` takes: the run's parameters)."""

    message = Unicode("")
    refusal = Instance(Refusal, allow_none=True)
    applied = Int(0)

    #: The tab's declared state (set by :func:`state_model`).
    spec = None
    #: The names of the fields that :meth:`update` takes, in order (each model's own).
    params: tuple = ()

    def refuse(self, why: str | Exception | Refusal, *, kept: str | None = None) -> None:
        """Say why a change was refused (``why`` may be a :class:`Refusal`); the same refusal
        twice in a row is said twice."""
        r = why if isinstance(why, Refusal) else Refusal(why=str(why), kept=kept)
        if self.message == r.text:
            self.message = ""
        self.refusal = r
        self.message = r.text

    @observe("message")
    def _said_else(self, change) -> None:
        r = self.refusal
        if r is not None and change["new"] != r.text:
            self.refusal = None  # a note or silence replaced the refusal

    # ------------------------------------------------------------------ declared state
    def get_state(self) -> dict:
        """The whole state as plain values, one per field of :attr:`spec` (lists copied)."""
        state = {}
        for name in self.spec.names:
            if self.has_trait(name):
                value = getattr(self, name)
                state[name] = list(value) if isinstance(value, (list, tuple)) else value
        state.update(self._own_state())
        return state

    def set_state(self, state) -> bool:
        """Apply a whole state (as from :meth:`get_state`, a file, a link or another tab); all
        or nothing. It is checked once, by ``spec.validate`` (missing fields take their
        defaults); a bad state, or one that gives no valid run, is refused and the current
        state kept. Returns whether it was applied."""
        try:
            values = self.spec.validate(state)
            return self._apply_state(values)
        except (ValueError, TypeError) as exc:
            self.refuse(exc, kept="settings")
            return False

    def reset(self) -> bool:
        """Every field back to its declared default (the opening state)."""
        return self.set_state(self.spec.defaults())

    def _own_state(self) -> dict:
        """The fields not held in a trait of their own, or held in another form (each model's)."""
        return {}

    def _apply_state(self, values: dict) -> bool:  # pragma: no cover - each model defines it
        """Build and commit a whole valid state (every field, checked by the spec); refuse and
        return False if it gives no valid run, or raise ``ValueError`` (refused as settings)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ parameters
    def _check_params(self, changes) -> None:
        """Raise ``TypeError`` for names :meth:`update` does not take (a programming error)."""
        unknown = set(changes) - set(self.params)
        if unknown:
            raise TypeError(f"unknown parameters {sorted(unknown)}; expected some of {self.params}")

    def _parse(self, changes) -> dict:
        """Each change (typed, or text as typed in the page, in the page's language: a decimal
        comma where it writes one) read by its field; ``ValueError`` in the words of the labels
        on screen, in the page's language."""
        return {k: self.spec.field(k).parse(v, typed=True) for k, v in changes.items()}

    def _params(self) -> dict:
        """The current value of each parameter."""
        return {k: getattr(self, k) for k in self.params}

    def _assign(self, p) -> None:
        """Set each parameter from ``p`` (within the caller's ``hold_trait_notifications``)."""
        for k in self.params:
            setattr(self, k, p[k])


def state_model(spec, *, without=(), params=None) -> type:
    """A :class:`TabModel` subclass with ``spec``, one trait per field of ``spec`` (those in
    ``without`` left out: the model holds them in another form) and ``params`` (default: every
    field with a trait); a tab's model subclasses it."""
    traits = state_traits(spec, without=without)
    name = "".join(part.title() for part in spec.tab.split("_")) + "State"
    ns = {"__module__": __name__, "__qualname__": name, "spec": spec,
          "params": tuple(traits) if params is None else tuple(params),
          "__doc__": f"The declared state of the {spec.tab} tab, one trait per field.", **traits}
    return type(TabModel)(name, (TabModel,), ns)
