"""Kernel websockets that send each message at once (TCP_NODELAY).

Tornado leaves Nagle's algorithm on for websockets: a small message written while an earlier one
is not yet acknowledged waits for the acknowledgement, and the browser delays that (delayed ACK)
until it has something to send itself. A kernel answers one message from the page with several
small ones (busy, the answer, idle), so during a drag the answer to one pointer move waited for
the next move: a band about one send interval (30 ms) later than it needed to be. Measured in
docs/performance.md (Margins drag). The server names this class with
``--Voila.kernel_websocket_connection_class`` (:func:`explorer.serving.serve.voila_args`), and
the hub's single-user servers with ``--ServerApp.kernel_websocket_connection_class``.
"""

from __future__ import annotations

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection with Nagle's algorithm turned off."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()
