"""Names that vulture (``make lint``) cannot see used: things called by name from outside.

Each line names an attribute (``_.name`` marks every attribute of that name as used);
vulture reads this file as one more module. Keep it to what a framework, a file format
or an entry point calls; dead code is deleted, not listed here.
"""

# Entry points (pyproject.toml's plug-in groups): loaded by name from the metadata.
_.ARCHEOS_CODEC
_.MYKERINOS_CODEC
_.ARCHEOS_RL
_.MARENOSTRUM_RL
_.MYKERINOS_RL
_.PEBBLES_RL
_.UNIFORM
_.STRATEGY
_.BOT_STRATEGIES  # senet.service reads it (vulture's first run leaves the service out)

# grpcio's generated add_*Servicer_to_server functions: what they call on the
# server-like registrars of senet.service.malformed.
_.add_registered_method_handlers

# pytest fixtures that tests ask for by name only (request.getfixturevalue), where a
# parametrized fixture needs Redis for one of its params.
_.prefixed_store

# PettingZoo's AEC API: what its users and api_test call by name.
_.observation_space

# OpenSpiel's Python game API: the hooks pyspiel calls on a game, a state and an observer.
_.make_py_observer
_._legal_actions
_._apply_action
_._action_to_string
_.set_from
_.string_from

# senet.rl: the action space's published identity (docs/learning.md).
_.fingerprint

# Textual: class settings and the handlers it dispatches by name (on_<message>,
# action_<binding>, compose).
_.ALLOW_IN_MAXIMIZED_VIEW
_.ALLOW_MAXIMIZE
_.BINDINGS
_.CSS
_.DEFAULT_CSS
_.ENABLE_COMMAND_PALETTE
_.TITLE
_.can_focus
_.no_wrap
_.overflow
_.compose
_.on_mount
_.on_button_pressed
_.on_descendant_focus
_.action_page
_.action_play_now
_.border_title
_.on_resize
_.watch_virtual_size  # a reactive's watcher, called by Textual when the attribute changes
_.on_input_changed
_.on_input_submitted
_.on_entry_move
_.on_entry_explain
_.on_option_list_option_selected
_.on_data_table_row_selected
_.action_zoom
_.action_next_region
_.action_board_page
_.action_escape
_.action_new

# asyncio.Protocol callbacks (senet.store.redis_mux).
_.data_received
_.connection_lost

# protobuf: setting a oneof arm is the whole point of the assignment (google.protobuf.Value).
_.null_value

# pytest: hooks and module markers.
_.pytest_collection_modifyitems
_.pytestmark

# Attributes read by the libraries the tests configure (configparser, pexpect).
_.optionxform
_.logfile_read

# tests/scale: MatchRecord fields go to JSON through dataclasses.asdict and are read
# back by key in another process.
_.first_target
_.export_b64

# Private attributes of senet.store objects that tests set; the store is defined in a
# folder `make lint` does not scan yet (see the Makefile).
_._multiplex
_._timeout_s

# http.server: the request handler methods it dispatches by name (tests serve a JWKS).
_.do_GET
_.log_message

# senet.v1.LadderService: the RPCs grpc dispatches by name.
_.RegisterBot
_.ListBots
_.RetireBot
_.StartLadder
_.GetLadder
_.ListLadders
_.StartHeadToHead
_.GetHeadToHead
_.CreateTournament
_.GetTournament
_.ExportTournament

# uvicorn.Server: the flag its serving loop reads to stop (a test serves in-process).
_.should_exit

# grpc.aio client interceptors: the methods a channel calls on every call.
_.intercept_unary_unary
_.intercept_unary_stream
_.intercept_stream_unary
_.intercept_stream_stream

# A log record's extra field, read by the formatters through vars(record).
_.process_index
