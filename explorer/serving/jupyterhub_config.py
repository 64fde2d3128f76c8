"""JupyterHub on one machine for a class: ``make hub`` (``python -m explorer.serving.hub``).

    jupyterhub -f explorer/serving/jupyterhub_config.py     # with the PE_HUB_* variables set

Students log in with the class password (the lecturer may also list the names allowed); each
gets a Jupyter server of their own, started as a local process with its own home folder, that
opens straight on the dashboard; Voila runs inside it as a server extension with the hall's
kernel settings. Servers are stopped on logout and by the idle culler. docs/serving.md shows this
file and gives the same values to Zero to JupyterHub for many machines.

The launcher (explorer.serving.hub) sets the ports, folders and limits in ``PE_HUB_*``
environment variables; without them, the defaults below are the ones ``make hub`` uses.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, when not installed

from explorer.serving import hub  # noqa: E402
from explorer.serving.serve import (  # noqa: E402
    HALL_CULL_IDLE_TIMEOUT,
    HALL_CULL_INTERVAL,
    HALL_KERNEL_ENV,
    HOST,
    NODELAY_CONNECTION,
    TEMPLATE,
    jupyter_path,
    kernel_settings,
)

c = get_config()  # noqa: F821 - given by JupyterHub when it loads this file
env = os.environ.get
state = Path(env("PE_HUB_STATE", str(hub.HUB_DIR / "state")))
state.mkdir(parents=True, exist_ok=True)

# -- where: everything on 127.0.0.1; the hub's files in the state folder
c.JupyterHub.ip = HOST
c.JupyterHub.port = int(env("PE_HUB_PORT", hub.DEFAULT_PORT))
c.JupyterHub.hub_ip = HOST
c.JupyterHub.hub_port = int(env("PE_HUB_API_PORT", 8081))
c.ConfigurableHTTPProxy.api_url = f"http://{HOST}:{env('PE_HUB_PROXY_API_PORT', 8001)}"
c.ConfigurableHTTPProxy.command = [env("PE_HUB_PROXY", str(hub.PROXY_PREFIX / hub.PROXY_COMMAND))]
c.ConfigurableHTTPProxy.pid_file = str(state / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(state / "jupyterhub.pid")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every server

# -- who: the class password; with a lecturer's list, only those names
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = hub.class_password(state)
users = env("PE_HUB_USERS")
if users:
    c.Authenticator.allowed_users = hub.allowed_users(Path(users))
else:
    c.Authenticator.allow_all = True

# -- each user's server: a local process in its own home folder, opening on the dashboard
c.JupyterHub.spawner_class = "simple"  # jupyterhub's SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(state / "homes" / "{username}")
c.Spawner.pre_spawn_hook = hub.prepare_home  # the home holds its own dashboard notebook
c.Spawner.post_stop_hook = hub.remove_runtime_dir  # a stopped server leaves no runtime files
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = hub.DEFAULT_URL
c.Spawner.args = [
    f"--{name}={value}" for name, value in kernel_settings(
        cull_idle_timeout=HALL_CULL_IDLE_TIMEOUT, cull_interval=HALL_CULL_INTERVAL).items()
] + [f"--ServerApp.kernel_websocket_connection_class={NODELAY_CONNECTION}",
       f"--VoilaConfiguration.template={TEMPLATE}"]  # found through JUPYTER_PATH (below)
if hasattr(os, "geteuid") and os.geteuid() == 0:
    c.Spawner.args.append("--allow-root")  # containers and CI machines often run as root
c.Spawner.environment = {
    **HALL_KERNEL_ENV,
    "JUPYTER_PREFER_ENV_PATH": "1",  # the environment's python3 kernel (explorer.serving.serve)
    "JUPYTER_PATH": jupyter_path(env("JUPYTER_PATH", "")),
    # the kernels' Unix sockets need a short folder (a socket's path has at most 107 bytes)
    "JUPYTER_RUNTIME_DIR": hub.runtime_dir,
    "PYTHONPATH": os.pathsep.join(p for p in (str(hub.CHECKOUT), env("PYTHONPATH", "")) if p),
}
if env("PE_HUB_ACTIVITY_INTERVAL"):
    c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] = env("PE_HUB_ACTIVITY_INTERVAL")
c.Spawner.start_timeout = 180  # a busy machine may take a minute to start a server
c.Spawner.http_timeout = 180

# -- how many: the limits, and the idle culler (the same values as Zero to JupyterHub's
#    config.yaml in docs/serving.md: hub.config.JupyterHub.*, cull.timeout and cull.every)
c.JupyterHub.active_server_limit = int(env("PE_HUB_ACTIVE_SERVER_LIMIT", hub.ACTIVE_SERVER_LIMIT))
c.JupyterHub.concurrent_spawn_limit = int(env("PE_HUB_CONCURRENT_SPAWN_LIMIT",
                                              hub.CONCURRENT_SPAWN_LIMIT))
cull_timeout = int(env("PE_HUB_CULL_TIMEOUT", hub.CULL_TIMEOUT))
cull_every = int(env("PE_HUB_CULL_EVERY", hub.CULL_EVERY))
c.JupyterHub.shutdown_on_logout = True  # logging out frees the server at once
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                f"--timeout={cull_timeout}", f"--cull-every={cull_every}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
# past the limit, the hub's "try again" answer (HTTP 429) in plain words: hub_templates/error.html
c.JupyterHub.template_paths = [str(Path(hub.__file__).parent / "hub_templates")]
c.JupyterHub.template_vars = {
    "class_places": c.JupyterHub.active_server_limit,
    "idle_after": f"{cull_timeout // 60} minutes" if cull_timeout >= 120 else f"{cull_timeout} s",
}
