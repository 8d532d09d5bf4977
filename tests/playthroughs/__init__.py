"""Playthrough files: seeded matches written out decision by decision, reviewed as diffs.

Each file under ``tests/playthroughs/`` records one seeded random match of one game
and variant (OpenSpiel style): for every decision the seat, the number of legal
actions, the action chosen and its label, the events it caused, and every few
decisions the messages of a few refused actions, once the whole view of the seat
to move; at the end the final scores,
ranking and snapshot. ``test_playthroughs.py`` replays each file and shows a diff
when anything observable changed; after an intended change, regenerate them with
``python -m tests.playthroughs --regenerate`` and review the diff like code.
"""
