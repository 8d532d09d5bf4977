"""The match service: application layer, gRPC API, server factory and operations.

Layers, outermost first: ``grpc_api`` (protobuf in/out, auth metadata, the error
mapping of ``grpc_errors``) -> ``matches`` (the ``MatchService`` façade) -> one
module per use case (``creation``, ``queries``, ``submissions``, ``streams``,
``handover``, over ``access``) -> ``senet.store`` (memory or Redis). Only the
gRPC face and the server set-up import grpc. No layer keeps a match in memory
between calls; any replica can serve any call.
"""
