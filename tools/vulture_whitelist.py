"""Names vulture finds unused in senet.service and senet.store, and why they are not.

``make lint`` runs ``vulture server/senet/service server/senet/store`` with this file
at --min-confidence 60. Each name here is either a hook a framework calls (gRPC,
asyncio, logging, protobuf) or used only by senet.cli or the tests, which vulture is
not run over. Anything else vulture reports is dead: remove it rather than list it.
"""

from senet.service import logs, processes, server
from senet.service.feeds import FeedHub
from senet.service.grpc_api import MatchServicer
from senet.service.grpc_bots import BotServicer
from senet.service.settings import Settings
from senet.store.redis_mux import MuxConnection, _Replies
from senet.v1 import match_service_pb2

_ = (
    # gRPC servicer methods, called by grpc.aio for each RPC.
    MatchServicer.ListGames,
    MatchServicer.CreateMatch,
    MatchServicer.JoinMatch,
    MatchServicer.LeaveMatch,
    MatchServicer.GetMatch,
    MatchServicer.ListLegalActions,
    MatchServicer.SubmitAction,
    MatchServicer.ExportMatch,
    MatchServicer.ListMatches,
    MatchServicer.WatchMatch,
    MatchServicer.PlayMatch,
    BotServicer.AcquireBotDecisions,
    BotServicer.RenewBotDecisions,
    BotServicer.ReleaseBotDecisions,
    # A protobuf field the gRPC face fills (assigned, never read back here).
    match_service_pb2.MatchListing().created_time_ms,
    # asyncio.Protocol and logging.Formatter hooks.
    _Replies.data_received,
    _Replies.connection_lost,
    logs.JsonFormatter.format,
    # Used by senet.cli (serve, logging set-up, settings from the environment).
    logs.configure,
    processes.supervise,
    server.serve,
    Settings.log_level,
    Settings.log_json,
    Settings.from_env,
    Settings.with_args,
    # Gauges the tests read (tests/service/test_watch_connections.py,
    # tests/store/test_redis_mux.py).
    FeedHub.watched_matches,
    FeedHub.reader_tasks,
    MuxConnection.in_flight,
)
