"""Serving the dashboard, apart from the algorithms, the drawing and the widgets.

- :mod:`explorer.serving.serve`: the ``perceptron-explorer`` command (Voila on 127.0.0.1, one
  kernel per page, tracebacks never sent to the page).
- :mod:`explorer.serving.hall`: the lecture-hall server (``--hall``): a preheated pool of kernels
  and a cap on the pages that hold one.

Nothing in ``explorer`` imports this package; it imports the dashboard's notebook cells only as
text.
"""
