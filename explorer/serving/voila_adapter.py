"""Every private Voila name the hall reaches, in one place (issue 31).

Voila 0.5's preheated pool (``voila.voila_kernel_manager.voila_kernel_manager_factory``) builds
its kernel manager class around the configured ``multi_kernel_manager_class`` and offers, in
public, the pool's configuration (``kernel_pools_config``), ``fill_if_needed`` and
``get_pool_size(notebook)``; the hall also needs which kernels wait in the pool and a say in
how it refills, which only these reach. :data:`CHECKED` is the range of Voila versions they
were checked on (``tests/test_adapters.py`` fails when the installed version leaves it:
re-check each function here against that version's ``voila/voila_kernel_manager.py``; at the
floor: ``.venv/bin/python scripts/test_at_floors.py --only voila tests/test_adapters.py``).
"""

from __future__ import annotations

#: Voila versions every function below was checked on (lowest included, highest not).
CHECKED = {"voila": (">=0.5.6", "<0.6")}


def pools(kernel_manager) -> dict:
    """``{notebook: [task, ...]}``: the preheated pool's kernels, each an ``asyncio`` task whose
    result holds its ``"kernel_id"`` (``VoilaKernelManager._pools``); empty for a manager
    without a pool. Public, ``get_pool_size(notebook)`` counts one notebook's tasks but
    neither names the notebooks nor gives the kernels' ids."""
    return getattr(kernel_manager, "_pools", {})


def has_pool(kernel_manager) -> bool:
    """Whether ``kernel_manager`` is Voila's preheating one (it has ``_pools``)."""
    return hasattr(kernel_manager, "_pools")


def mix_in(kernel_manager, mixin: type, *, prefix: str):
    """Put ``mixin`` before the class of ``kernel_manager`` (an instance Voila already made),
    so its methods run first and reach Voila's through ``super()``: assigns ``__class__``.
    Voila makes its class inside ``Voila.init_settings`` from the configured base class, so a
    base class can only sit below Voila's pool methods, never above them, and no option names
    a class to put on top. The new class is named ``prefix`` + the old one's name."""
    if not isinstance(kernel_manager, mixin):
        cls = type(kernel_manager)
        kernel_manager.__class__ = type(prefix + cls.__name__, (mixin, cls), {})
    return kernel_manager
