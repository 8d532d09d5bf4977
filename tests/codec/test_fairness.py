"""The documented fairness formulas, pinned by known answers (docs/protocol.md, fairness)."""

from __future__ import annotations

from senet.codec.fairness import effective_seed, expected_deal, seed_commitment
from senet.v1 import match_service_pb2 as ms


def test_the_commitment_is_the_sha256_of_salt_and_seed() -> None:
    assert seed_commitment("salt", 7) == (
        "0bdc73c5926d255cff128e882ca1d39c7a7f27e4cdba05d5488f352c1d445044"
    )


def test_the_deal_takes_the_first_eight_bytes_of_seed_and_every_seats_entropy() -> None:
    # "7:ab:": seat 0 gave "ab", seat 1 (a bot) gave nothing.
    assert effective_seed(7, ["ab", ""]) == 10455269532983400230


def test_a_chosen_seed_deals_alone() -> None:
    chosen = ms.ExportMatchResponse(seed=7, seed_chosen=True, seat_entropy=["ab", ""])
    fair = ms.ExportMatchResponse(seed=7, seed_chosen=False, seat_entropy=["ab", ""])
    assert expected_deal(chosen) == 7
    assert expected_deal(fair) == 10455269532983400230
