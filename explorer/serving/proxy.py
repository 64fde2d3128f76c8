"""The reverse proxy in front of a room: the nginx and Caddy blocks docs/serving.md gives.

The hall listens on 127.0.0.1 (``perceptron-explorer --hall``); a room reaches it through a
proxy that ends TLS, forwards a path (``--base-url /perceptron/``) and its websockets (the
kernels' and the lecture's). :func:`nginx_site` writes the nginx ``server`` block the browser
test ``tests/browser/test_lecture_proxy.py`` runs Debian's nginx with, and docs/serving.md
shows (a test checks they are the same text); :data:`CADDY_SITE` is the same for Caddy, which
obtains its certificate itself and forwards websockets and the ``Host`` header by default.

Two lines matter most: ``proxy_set_header Host $http_host`` (the ``Host`` with its port: the
server compares a websocket's ``Origin`` with it and refuses a mismatch), and the ``Upgrade``
and ``Connection`` headers (nginx drops them, and with them every websocket, unless told).
"""

from __future__ import annotations

__all__ = ["CADDY_SITE", "nginx_site"]

_NGINX = """\
map $http_upgrade $connection_upgrade {{
    default upgrade;
    ''      close;
}}

server {{
    listen {listen} ssl;
    server_name {server_name};
    ssl_certificate     {cert};
    ssl_certificate_key {key};

    location {prefix} {{
        proxy_pass http://127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;
        proxy_buffering off;
    }}
}}
"""

#: Caddy (``/etc/caddy/Caddyfile``): TLS, websockets and the Host header need no line of their own.
CADDY_SITE = """\
lecture.example.org {
    handle /perceptron/* {
        reverse_proxy 127.0.0.1:8866
    }
}
"""


def nginx_site(*, port: int = 8866, prefix: str = "/perceptron/", listen: str = "443",
               server_name: str = "lecture.example.org",
               cert: str = "/etc/ssl/certs/lecture.pem",
               key: str = "/etc/ssl/private/lecture.key") -> str:
    """The nginx ``server`` block (and the ``map`` it needs, at the ``http`` level) that serves
    the hall on ``127.0.0.1:port``, started with ``--base-url prefix``, over TLS at ``listen``.

    The defaults are docs/serving.md's example. ``prefix`` must start and end with ``/``.
    """
    if not (prefix.startswith("/") and prefix.endswith("/")):
        raise ValueError(f"prefix must start and end with '/'; got {prefix!r}")
    return _NGINX.format(port=int(port), prefix=prefix, listen=listen,
                         server_name=server_name, cert=cert, key=key)
