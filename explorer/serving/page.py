"""The dashboard's Voila application: Voila 0.5 whose page sets the ``_xsrf`` cookie.

A Voila page asks the server to shut its kernel down when it is left (the page's
``beforeunload``: ``POST voila/api/shutdown/<kernel id>`` with the ``_xsrf`` cookie's value as
the form's ``_xsrf`` field). jupyter_server checks that field against the cookie (cross-site
request forgery), but only a page rendered from one of jupyter_server's own templates sets the
cookie (tornado sets it when a request reads ``RequestHandler.xsrf_token``), and Voila's page is
rendered by nbconvert: the page sent an empty field, the server answered ``403 '_xsrf' argument
missing``, and each left page's kernel lived until the culler came (600 s with
``perceptron-explorer``). :class:`PageHandler` reads the token before the page is sent, so the
cookie comes with the page and the shutdown is accepted; the check itself is left as it is.

Under JupyterHub (``make hub``, Binder) the single-user server sets the cookie at login, so
Voila's own server extension needs nothing of this.

``perceptron-explorer`` runs :class:`ExplorerVoila`; the hall (:mod:`explorer.serving.hall`)
subclasses both classes.
"""

from __future__ import annotations

from tornado import web
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler


class PageHandler(TornadoVoilaHandler):
    """Voila's page handler, whose answer sets the ``_xsrf`` cookie (see the module docstring)."""

    def set_xsrf_cookie(self) -> None:
        """Send the ``_xsrf`` cookie with this answer (before its first byte is flushed)."""
        self.xsrf_token  # noqa: B018 - tornado sets the cookie when the token is read

    @web.authenticated
    async def get(self, path=None):
        self.set_xsrf_cookie()
        return await super().get(path=path)


def page_handlers(handlers: list, handler_class: type, **extra) -> list:
    """Voila's handlers with its page handler (or one that replaced it) replaced by
    ``handler_class``, given ``extra`` keyword arguments besides Voila's own."""
    out = []
    for spec in handlers:
        if (len(spec) == 3 and isinstance(spec[1], type)
                and issubclass(spec[1], TornadoVoilaHandler)):
            spec = (spec[0], handler_class, {**spec[2], **extra})
        out.append(spec)
    return out


class ExplorerVoila(Voila):
    """Voila serving its page with :class:`PageHandler`."""

    def init_handlers(self):
        return page_handlers(super().init_handlers(), PageHandler)


if __name__ == "__main__":  # ``python -m explorer.serving.page <Voila arguments>`` (--dry-run)
    ExplorerVoila.launch_instance()
