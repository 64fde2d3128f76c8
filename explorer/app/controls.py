"""A tab's settings controls, made from its declared fields (:mod:`explorer.app.state`).

One maker per kind of field: :func:`text_box` for numbers, lists of numbers, points and text
(what is typed is read by the field, :meth:`~explorer.app.state_field.Field.parse`, and a value
is shown as :meth:`~explorer.app.state_field.Field.format` writes it), or :func:`slider` for a
bounded number; :func:`choice_menu` for a choice or a whole number (each option with its title,
in the order given) or :func:`choice_buttons` for a choice (in the declared order);
:func:`check_box` for a bool. The maker names the control by the field's label unless the view
gives another description; the view lays them out.

:class:`FieldControls` is the part of a tab view that keeps its controls and its model in step:
:meth:`FieldControls._sync_controls`, the one path from the state to the controls (their
observers do nothing meanwhile), and :meth:`FieldControls._apply`, the one path back (a value
the model holds already is not applied again; a refused one puts the last good value back on
screen, the reason beside it).

A field that declares its :class:`~explorer.app.state_field.Control` needs nothing more: one
maker, :func:`field_control`, builds its widget (kind, bounds, step, description, help);
:meth:`FieldControls._declared_controls` builds and binds those of a view; every sync shows their
values and applies their enabling rules (:meth:`FieldControls._show_declared`); and
:func:`caption_of` writes their phrases of an export's caption.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import ipywidgets as W
import traitlets as T
from ipywidgets.widgets.widget_bool import CheckboxStyle

from .labels import label

__all__ = ["TEXT_KINDS", "text_box", "slider", "choice_menu", "choice_buttons", "check_box",
           "ChoiceChecks", "shown", "show", "FieldControls", "field_control", "declared",
           "caption_of", "enabled"]

#: The kinds of field typed into a text box.
TEXT_KINDS = ("int", "float", "ints", "floats", "points", "text")


#: A control's words: set in the page's language, and again at each change (labels.label).
_WORDS = ("description", "tooltip", "placeholder")


def _worded(cls, kwargs: dict, **more):
    """``cls(**kwargs, **more)`` whose words (:data:`_WORDS`, English, the catalogs' keys) are
    set through :func:`explorer.app.labels.label`, so they follow the page's language."""
    words = {k: kwargs.pop(k) for k in _WORDS
             if callable(kwargs.get(k)) or (isinstance(kwargs.get(k), str) and kwargs[k])}
    widget = cls(**kwargs, **more)
    return label(widget, **words) if words else widget


def _kind(field, kinds) -> None:
    if field.kind not in kinds:
        raise ValueError(f"{field.name} is a {field.kind} field; this control is for "
                         f"{', '.join(kinds)} fields")


def text_box(field, **kwargs) -> W.Text:
    """A text box for ``field`` (a number, a list or text), labelled by it; ``kwargs`` go to
    :class:`ipywidgets.Text` (its value is set by :meth:`FieldControls._sync_controls`)."""
    _kind(field, TEXT_KINDS)
    kwargs.setdefault("description", field.label)
    return _worded(W.Text, kwargs, continuous_update=False)


def slider(field, value, *, step, **kwargs) -> W.IntSlider | W.FloatSlider:
    """A slider over the bounds of an int or float ``field``, labelled by it; it applies its
    value when released."""
    _kind(field, ("int", "float"))
    kwargs.setdefault("description", field.label)
    cls = W.IntSlider if field.kind == "int" else W.FloatSlider
    return _worded(cls, kwargs, value=value, min=field.min, max=field.max, step=step,
                   continuous_update=False)


def choice_menu(field, titles, value, **kwargs) -> W.Dropdown:
    """A drop-down of the values of ``field`` (a choice, or a bounded whole number), each shown
    by its title: ``titles`` is a sequence of ``(value, title)`` pairs, one per value, in the
    order the menu lists them."""
    _kind(field, ("choice", "int"))
    titles = list(titles)
    keys = [k for k, _ in titles]
    values = field.menu_values()
    if set(keys) != set(values) or len(keys) != len(values):
        raise ValueError(f"{field.name}: a menu needs one title per value "
                         f"({', '.join(map(str, values))}); got titles for {keys}")
    return _worded(W.Dropdown, kwargs, options=[(title, key) for key, title in titles],
                   value=value)


def choice_buttons(field, titles: Mapping, value, **kwargs) -> W.ToggleButtons:
    """A row of buttons, one per choice of ``field``, each shown by its title in ``titles``."""
    _kind(field, ("choice",))
    kwargs.setdefault("style", {"button_width": "auto"})
    return _worded(W.ToggleButtons, kwargs,
                   options=[(titles[key], key) for key in field.choices], value=value)


def check_box(field, value, **kwargs) -> W.Checkbox:
    """A check box for a bool ``field``, labelled by it unless ``description`` is given."""
    _kind(field, ("bool",))
    kwargs.setdefault("description", field.label)
    return _worded(W.Checkbox, kwargs, value=value, indent=False)


class ChoiceChecks(W.VBox):
    """A check box per choice of a ``"choices"`` field, under its label: ``value`` is the list
    of the choices ticked, in the declared order (as the field parses them)."""

    value = T.List(T.Unicode())

    def __init__(self, field, titles: Mapping, value, *, description: str | None = None,
                 **kwargs):
        _kind(field, ("choices",))
        # one layout and style for all the boxes (never changed): fewer models for the page
        layout = W.Layout(width="auto", margin="0 1em 0 0")
        style = CheckboxStyle()
        self.boxes = {key: label(W.Checkbox(value=key in value, indent=False, layout=layout,
                                            style=style), description=titles[key])
                      for key in field.choices}
        row = W.HBox(list(self.boxes.values()), layout=W.Layout(flex_flow="row wrap"))
        title = label(W.Label(), value=description if description is not None else field.label)
        super().__init__([title, row], **kwargs)
        self.add_class("pe-choice-checks")
        self._setting = False
        self.value = list(value)
        for box in self.boxes.values():
            box.observe(self._ticked, names="value")
        self.observe(self._shown, names="value")

    def _ticked(self, change) -> None:
        if not self._setting:
            self.value = [k for k, box in self.boxes.items() if box.value]

    def _shown(self, change) -> None:
        self._setting = True
        try:
            for key, box in self.boxes.items():
                show(box, key in change["new"])
        finally:
            self._setting = False

    def disable(self, keys) -> None:
        """Grey out the boxes of ``keys`` (e.g. the choice another control makes already)."""
        for key, box in self.boxes.items():
            box.disabled = key in keys


def field_control(field, value, **kwargs) -> W.Widget:
    """The widget of a field that declares its control (:class:`~explorer.app.state_field.Control`),
    showing ``value``: its kind, bounds, step, description and help come from the declaration;
    ``kwargs`` (style, layout) go to the widget."""
    c = field.control
    if c is None:
        raise ValueError(f"{field.name} declares no control")
    if c.description is not None:
        kwargs.setdefault("description", c.description)
    if c.help:
        kwargs.setdefault("tooltip", c.help)
    if c.placeholder:
        kwargs.setdefault("placeholder", c.placeholder)
    if c.kind == "text":  # with no help of its own, a text box says what it takes
        kwargs.setdefault("tooltip", lambda: field.expected(typed=True))
        box = text_box(field, **kwargs)
        box.value = field.format(value)
        return box
    if c.kind == "slider":
        return slider(field, value, step=c.step, **kwargs)
    if c.kind == "log_slider":
        kwargs.setdefault("description", field.label)
        return _worded(W.FloatLogSlider, kwargs, value=10.0 ** value, base=10, min=field.min,
                       max=field.max, step=c.step, continuous_update=False,
                       readout_format=".3g")
    if c.kind == "check":  # its label beside it: no column of labels, its own width
        return check_box(field, value, **_own_width(kwargs))
    kwargs.setdefault("description", field.label)
    if c.kind == "menu":  # the choices, or a whole number's, in the titles' order
        return choice_menu(field, c.titles, value, **kwargs)
    # a row of buttons: its own width, each button as wide as its title
    kwargs = _own_width(kwargs)
    if c.tips:
        kwargs["tooltips"] = [tip for _, tip in c.tips]
    return choice_buttons(field, dict(c.titles), value, **kwargs)


def _own_width(kwargs: dict) -> dict:
    """``kwargs`` without the column's style and layout (a control as wide as itself)."""
    return {k: v for k, v in kwargs.items() if k not in ("style", "layout")}


def declared(spec) -> tuple:
    """The names of ``spec``'s fields that declare their control, in the declared order."""
    return tuple(n for n in spec.names if spec.field(n).control is not None)


def enabled(field, model) -> bool:
    """Whether ``field`` applies in ``model``'s state (its declared rule; no rule: always)."""
    rule = field.control.enabled if field.control is not None else None
    return True if rule is None else bool(rule(model))


def caption_of(spec, model, *, stem: bool = False):
    """The declared fields' phrases of an export's caption for ``model``'s state, joined by
    " · ", by rank then in declared order; a field whose rule is false says nothing. With
    ``stem``, their parts of the file's name instead, as a list."""
    fields = sorted((spec.field(n) for n in declared(spec)), key=lambda f: f.control.caption_rank)
    phrases = [f.control.phrase(getattr(model, f.name), stem=stem) for f in fields
               if enabled(f, model)]
    phrases = [p for p in phrases if p]
    return phrases if stem else " · ".join(phrases)


def shown(field, value, control):
    """What ``control`` shows for ``field``'s ``value``: its text in a text box, 10 ** value on
    a log slider, else the value (a slider's number, a choice's key, a check box's bool)."""
    if isinstance(control, W.Text):
        return field.format(value)
    return 10.0 ** value if isinstance(control, W.FloatLogSlider) else value


def read(control, value):
    """The field's value for what ``control`` gives (the exponent of a log slider's value)."""
    return math.log10(value) if isinstance(control, W.FloatLogSlider) else value


def show(control, value) -> None:
    """Set ``control`` to ``value`` unless it shows it already (no message to the page; a log
    slider's value as near as its round trip through the exponent gives)."""
    if isinstance(control, W.FloatLogSlider):
        if not math.isclose(control.value, value, rel_tol=1e-9):
            control.value = value
    elif control.value != value:
        control.value = value


class FieldControls:
    """The part of a tab view that keeps its controls and its model in step (see the module
    docstring). The view has ``model``, ``spec``, ``text`` (its text boxes by field name) and
    may define :meth:`_sync` (what it shows besides its declared controls)."""

    _syncing = False  # controls set from the model: their observers do nothing
    #: The controls made from their fields' declarations, by field name (:meth:`_declared_controls`).
    controls: Mapping = {}

    def _sync_controls(self) -> None:
        """Every control from the model: the one path from the state to the settings."""
        self._syncing = True
        try:
            self._sync()
            self._show_declared()
        finally:
            self._syncing = False

    def _declared_controls(self, **kwargs) -> dict:
        """Make and bind the control of every field of ``self.spec`` that declares one
        (:func:`field_control`; ``kwargs`` to each), into :attr:`controls` (text boxes also into
        ``text``); returns them by field name."""
        m = self.model
        # one style and layout for all of them (never changed: a control is hidden with its
        # group), fewer models for the page to make
        made = {name: field_control(self.spec.field(name), getattr(m, name), **kwargs)
                for name in declared(self.spec)}
        self.controls = made
        self.text = {**getattr(self, "text", {}),
                     **{n: c for n, c in made.items() if isinstance(c, W.Text)}}
        self._observe_fields(made)
        return made

    def _show_declared(self) -> None:
        """Each declared control shows the model's value and is greyed out while its rule is
        false (showing then what its ``off_shows`` gives, if it has one): the one place the
        enabling rules are applied."""
        m = self.model
        for name, control in self.controls.items():
            field = self.spec.field(name)
            on = enabled(field, m)
            off = field.control.off_shows
            show(control, off(m) if not on and off is not None else
                 shown(field, getattr(m, name), control))
            if field.control.enabled is not None:
                control.disabled = not on

    def _sync(self) -> None:
        """Show what the view shows besides its declared controls (nothing by default: they
        are shown by :meth:`_show_declared`)."""

    def _show_fields(self, controls: Mapping, **instead) -> None:
        """Show the model's value of each field in its control (``controls`` by field name);
        ``instead`` gives what a control shows in place of its field's value."""
        m = self.model
        for name, control in controls.items():
            show(control, instead[name] if name in instead else
                 shown(self.spec.field(name), getattr(m, name), control))

    def _observe_fields(self, controls: Mapping) -> None:
        """Apply each control's new value to its field (``controls`` by field name)."""
        for name, control in controls.items():
            control.observe(lambda ch, n=name, c=control: self._apply(n, read(c, ch["new"])),
                            names="value")

    def _holds(self, name: str, value) -> bool:
        """Whether the model holds ``value`` (as its control gives it) for field ``name``."""
        current = getattr(self.model, name)
        if name in self.text:
            return value == self.spec.field(name).format(current)
        return list(value) == list(current) if isinstance(value, (list, tuple)) else \
            value == current

    def _apply(self, name: str, value) -> None:
        """A control's new value to the model, unless set from it or held already; a refused
        value puts the last good one back on screen, the reason beside it."""
        if self._syncing or self._holds(name, value):
            return
        if not self.model.update(**{name: value}):
            self._sync_controls()
