"""gRPC's own logging, set for the ``senet`` command before gRPC loads.

gRPC's core logs to stderr at INFO unless told otherwise: a server that stops while
a client's stream is open prints a ``Got goaway`` line at the client, for instance,
in the middle of a terminal client's screen or an arena's table. The command keeps
gRPC's errors and drops the rest; ``GRPC_VERBOSITY`` set in the environment still
wins (``GRPC_VERBOSITY=INFO senet ...`` to see everything). gRPC reads the variable
when it loads, so this module is imported before anything that imports ``grpc``.
"""

from __future__ import annotations

import os

#: What the command sets ``GRPC_VERBOSITY`` to when the environment does not.
DEFAULT_VERBOSITY = "ERROR"

os.environ.setdefault("GRPC_VERBOSITY", DEFAULT_VERBOSITY)
