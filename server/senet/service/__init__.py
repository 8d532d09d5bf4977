"""The match service: application layer, gRPC API, server factory and operations.

Layers, outermost first: ``grpc_api`` (protobuf in/out, auth metadata) ->
``matches`` (load, authorize, check turn, apply with the rules core, commit,
publish) -> ``senet.store`` (memory or Redis). No layer keeps a match in memory
between calls; any replica can serve any call.
"""
