"""Sample Senet clients: a typed client library, and (later) the text client and bots.

``senet.client.client.SenetClient`` is what third parties import::

    async with SenetClient("127.0.0.1:50051") as senet:
        match_id = await senet.create_match("mykerinos", seats=2)
        me = await senet.join(match_id, "Ada")
        async for message in me.watch():
            ...
"""

from senet.client.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.client.turns import must_decide

__all__ = ["SeatClient", "SenetClient", "SenetRpcError", "must_decide"]
