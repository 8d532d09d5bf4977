"""Mare Nostrum constants shared by the state, its labels and its snapshots."""

from __future__ import annotations

# Steps: what the seat (or seats) to move is deciding.
SETUP_CAPITAL = "setup_capital"  # free set-up: Greece or Atlantis picks its capital
SETUP_BUILD = "setup_build"  # free set-up: spend this round's points
ROLE_TIE = "role_tie"  # a role holder hands the role to one of the tied others
ORDER = "order"  # a role holder names the next player of the phase
TRADE_SIZE = "trade_size"  # the Director of Commerce sets how many cards to offer
OFFER = "offer"  # every trader picks offered cards, at the same time, hidden
TAKE = "take"  # the take chain: the taker takes a face-up card of another player
COMPENSATE = "compensate"  # the Director gives the player one card short a card
OFFERING = "offering"  # a player may make an offering to a god
BUILD = "build"  # a player's construction turn
PAY = "pay"  # paying a set, card by card
NAVAL = "naval"  # a player's naval moves and battles
GROUND = "ground"  # a player's ground moves
LOSSES = "losses"  # a player picks which units a battle destroys
AFTER_BATTLE = "after_battle"  # sole surviving invader: sack, occupy or convert
BLOCKADE = "blockade"  # the Greek player may attack the triremes carrying an invader
DECLARE = "declare"  # the invader names the units crossing towards a Greek province
BARTER = "barter"  # Ulysses's owner may swap a card with the bank after the trading
WAR_GOD = "war_god"  # Mars's holder, a battle he fights rolled: invoke or keep
ROLE_GOD = "role_god"  # Ishtar's holder, at the role step: invoke her on a role or not
TRADE_GOD = "trade_god"  # a god's holder, before the trade is sized: invoke it or not
SPELL = "spell"  # Circe's owner, before a ground battle she fights: cast her spell or not
GIFT = "gift"  # a commodity from the bank: a card's gift after the revenue, or Hermes's
OCCUPATION = "occupation"  # the occupier puts his units on the buildings, one by one
KEEP = "keep"  # after construction, a player may give tax cards back instead of keeping them
SEA_GOD = "sea_god"  # Poseidon's holder, another's crossing by sea about to land: sink or not
NAVAL_GOD = "naval_god"  # Poseidon's holder, a sea battle about to be rolled: sink or not
OVER = "over"
STEPS = (
    SETUP_CAPITAL,
    SETUP_BUILD,
    ROLE_TIE,
    ORDER,
    TRADE_SIZE,
    OFFER,
    TAKE,
    COMPENSATE,
    OFFERING,
    BUILD,
    PAY,
    NAVAL,
    GROUND,
    LOSSES,
    AFTER_BATTLE,
    BLOCKADE,
    DECLARE,
    BARTER,
    WAR_GOD,
    ROLE_GOD,
    OCCUPATION,
    KEEP,
    TRADE_GOD,
    SPELL,
    GIFT,
    SEA_GOD,
    NAVAL_GOD,
    OVER,
)

# Phases of a turn (text: always in this order), and the set-up before them.
SETUP, COMMERCE, OFFERINGS, CONSTRUCTION, MILITARY = range(5)
PHASE_NAMES = ("setup", "commerce", "offerings", "construction", "military")

# Roles, in the order the set-up hands them out.
COMMERCE_ROLE, PRIEST_ROLE, POLITICAL_ROLE, MILITARY_ROLE = range(4)
ROLE_IDS = ("commerce", "priest", "political", "military")
ROLE_NAMES = ("Director of Commerce", "High Priest", "Political Leader", "Military Leader")
ROLE_BONUS_NAMES = ("commerce", "priest", "political", "military")
#: Which role orders each phase.
PHASE_ROLE = {OFFERINGS: PRIEST_ROLE, CONSTRUCTION: POLITICAL_ROLE, MILITARY: MILITARY_ROLE}

NOBODY = -1

# Once-per-phase card powers, as bits of a seat's ``powers_used`` (cleared when the
# seat's construction or military turn begins, except Circe's spell: her owner may
# cast it defending in another's military turn, so it lasts the whole military phase).
CLEOPATRA_POWER, MIDAS_POWER, ARTEMIS_POWER, MEDUSA_POWER, SPELL_POWER = 1, 2, 4, 8, 16
#: Circe's spell is on the ground battle about to be fought (cleared once it is).
SPELLBOUND = 32
#: The commodity the Hanging Gardens and the Queen of Sheba bring has been taken this
#: commerce phase (cleared when it begins), by their income effect's kind.
GIFT_TAKEN = {"produced": 64, "any": 128}
#: The cards Hermes still brings his holder, who picks them one by one: a count in
#: these two bits (0 to 3, in units of ``HERMES_UNIT``).
HERMES_UNIT, HERMES_DUE = 256, 768
POWER_BITS = 1023

# Ground unit kinds in battle losses.
UNIT_KINDS = ("legion", "creature", "fortress")
LEGION_UNIT, CREATURE_UNIT, FORTRESS_UNIT = range(3)

#: Default turn limit: none (text: the game ends when a player builds the Pyramids or
#: owns 4 heroes and/or wonders; ruling R17).
DEFAULT_TURN_LIMIT = 0
#: The turn limit of ``GameInfo.bounded_match_options``: where a caller needs every
#: match to end (the arena, benchmarks, learning environments), it ends and ranks a
#: match nobody has won by then (ruling R17).
BOUNDED_TURN_LIMIT = 12
