"""What a first-time player meets in the browser (issue 34, the web part), each shown
in screenshots at 1280x900 and 800x900 and held by an assertion that fails if the
problem comes back: refusals in words, a way back to your seat, the server's places,
a replay's position, what just happened and a log beside the board, the lobby's
options and clocks.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import MATCH_WAIT_MS, create_match, wait_for_turn, wait_until

pytestmark = pytest.mark.slow

WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 800, "height": 900}
PHONE = {"width": 390, "height": 844}
#: A reason code (``NO_OPEN_SEAT``, ``ILLEGAL_ACTION``) where words belong.
REASON_CODE = re.compile(r"\b[A-Z]{2,}_[A-Z_]{2,}\b")


def _both_widths(page: Any, screenshots: Path, name: str) -> None:
    """Screenshots of the page's first screen at 1280x900, then at 800x900."""
    for size in (WIDE, NARROW):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(screenshots / f"{name}-{size['width']}.png"))
    page.set_viewport_size(WIDE)


def _check_log_folded(page: Any) -> None:
    """No two alike lines in the live log with only other seats' actions of the same
    word between them (traders' offers interleave): those fold into one."""
    logged = page.eval_on_selector_all(
        "#log li", "items => items.map((li) => [li.dataset.key, li.dataset.seat, li.dataset.word])"
    )
    for first, (key, seat, word) in enumerate(logged):
        for later in logged[first + 1 :]:
            if later[0] == key:
                pytest.fail(f"{key!r} should have folded: {logged}")
            if not word or later[1] == seat or later[2] != word:
                break


def test_a_wrong_notation_says_why(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    create_match(page, web_url, "mykerinos", ["you", "bot:random"])
    wait_for_turn(page)
    page.locator("#filter").fill("zz9")
    assert "No action matches “zz9”" in page.locator("#picked").inner_text()
    page.locator("#filter").press("Enter")
    page.wait_for_selector("#problem:not([hidden])", timeout=MATCH_WAIT_MS)
    problem = page.locator("#problem").inner_text()
    assert problem.startswith("Not accepted:") and "zz9" in problem
    assert not REASON_CODE.search(problem), problem
    # The server said why: the hint to ask it goes (a trial saw both at once).
    assert "Press Enter to hear why" not in page.locator("#picked").inner_text()
    _both_widths(page, screenshots, "usability-wrong-notation")
    # The refusal's 409 is the one console line Chromium writes; nothing else.
    assert [error for error in page.errors if "409 (Conflict)" not in error] == []


def test_refusals_are_sentences_and_an_unknown_match_ends_the_wait(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    owner = new_page(WIDE)
    match_id = create_match(owner, web_url, "mykerinos", ["you", "bot:random"])
    stranger = new_page(WIDE)
    stranger.goto(web_url + "/")
    stranger.locator("#join-id").fill(match_id)
    stranger.locator("#join-form button[type=submit]").click()
    stranger.wait_for_selector("p.problem")
    problem = stranger.locator("p.problem").inner_text()
    assert "Every seat of this match is taken" in problem
    assert not REASON_CODE.search(stranger.content().split("<main", 1)[1]), problem
    _both_widths(stranger, screenshots, "usability-no-open-seat")

    stranger.goto(f"{web_url}/matches/0123abcd/watch")
    wait_until(stranger, "() => document.body.dataset.failed === 'true'")
    headline = stranger.locator("#headline").inner_text()
    assert "Connecting" not in headline and "Nothing to show" in headline
    assert "no match with that id" in stranger.locator("#problem").inner_text()
    assert stranger.locator("#board").is_hidden()
    _both_widths(stranger, screenshots, "usability-unknown-match")
    assert owner.errors == []


def test_the_lobby_leads_back_to_the_seats_this_browser_holds(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    match_id = create_match(page, web_url, "archeos", ["you", "open", "bot:random"])
    page.goto(web_url + "/")
    row = page.locator(f"#your-matches tr:has(code:text-is('{match_id}'))")
    assert row.count() == 1 and "seat 0" in row.inner_text()
    assert page.locator(f"#open-matches tr:has(code:text-is('{match_id}')) a.resume").count() == 1
    _both_widths(page, screenshots, "usability-your-matches")
    row.locator("a.resume").click()
    page.wait_for_url(f"**/matches/{match_id}/play")
    # Joining by id a match where this browser holds a seat goes back to that seat.
    page.goto(web_url + "/")
    page.locator("#join-id").fill(match_id)
    page.locator("#join-form button[type=submit]").click()
    page.wait_for_url(f"**/matches/{match_id}/play")
    wait_until(page, "() => document.body.dataset.drawn === 'true'")
    assert page.locator("p.problem:not([hidden])").count() == 0
    assert page.errors == []


def test_the_lobby_fits_a_phone_and_leads_to_its_matches(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A usability trial found the lobby's matches cut off at the right edge of a
    phone (the join and watch links out of reach) and the list below every form:
    on a phone each match is a card as wide as the screen, and the top of the page
    links to the list."""
    page = new_page(WIDE)
    held = create_match(page, web_url, "archeos", ["you", "open", "bot:random"])
    other = new_page(PHONE)
    create_match(other, web_url, "mykerinos", ["you", "open"])
    phone = new_page(PHONE)
    phone.goto(web_url + "/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    link = phone.locator("nav.new-match a[href='#open-matches']")
    assert link.inner_text().startswith("Matches (")
    link.click()
    join = phone.locator("#open-matches form.inline button", has_text="join").first
    join.scroll_into_view_if_needed()
    box = join.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]
    assert phone.locator(f"#open-matches tr:has(code:text-is('{held}'))").is_visible()
    phone.screenshot(path=str(screenshots / "usability-lobby-phone.png"))
    assert page.errors == [] and phone.errors == []


def test_a_refused_new_match_keeps_the_form_as_the_player_left_it(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """A usability trial ticked the team game with two seats: the refusal came back
    with the form reset to its defaults. Now the reason shows beside the form as the
    player filled it, so they change only what was wrong."""
    page = new_page(WIDE)
    page.goto(web_url + "/")
    form = page.locator("section:has(h2#game-mykerinos) form.create")
    form.locator("select[name=seat0]").select_option("you")
    form.locator("select[name=seat1]").select_option("bot:greedy")
    for seat in range(2, form.locator("select[name^=seat]").count()):
        form.locator(f"select[name=seat{seat}]").select_option("")
    form.locator("input[name='opt:team'][type=checkbox]").check()
    form.locator("input[name=name]").fill("Quinn")
    form.locator("button[type=submit]").click()
    page.wait_for_selector("p.problem[role=alert]")
    assert "team game" in page.locator("p.problem[role=alert]").inner_text()
    form = page.locator("section:has(h2#game-mykerinos) form.create")
    assert form.locator("input[name='opt:team'][type=checkbox]").is_checked()
    assert form.locator("select[name=seat1]").input_value() == "bot:greedy"
    assert form.locator("select[name=seat2]").input_value() == ""
    assert form.locator("input[name=name]").input_value() == "Quinn"
    page.screenshot(path=str(screenshots / "usability-refused-form.png"))
    # What was wrong changed, the rest as it was: the match is created as chosen.
    form.locator("input[name='opt:team'][type=checkbox]").uncheck()
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*/play")
    seats = page.locator("table.seats").inner_text()
    assert "Quinn" in seats and "greedy" in seats
    # A fresh lobby starts from the defaults again.
    page.goto(web_url + "/")
    fresh = page.locator("section:has(h2#game-mykerinos) form.create")
    assert not fresh.locator("input[name='opt:team'][type=checkbox]").is_checked()
    assert [error for error in page.errors if "400 (Bad Request)" not in error] == []


def test_the_lobby_shows_options_by_their_descriptions_with_clocks_near_the_top(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    page.goto(web_url + "/")
    forms = page.locator("form.create")
    labels = forms.locator(".opt label").all_inner_texts()
    assert labels and not [text for text in labels if re.fullmatch(r"[a-z]+(_[a-z]+)+", text)]
    assert forms.locator("input[name=clock_decision_s]").count() == forms.count()
    game_tops = [
        page.locator(f"#game-{game}").bounding_box()["y"]
        for game in ("mykerinos", "archeos", "marenostrum")
    ]
    matches_top = page.locator("#open-matches").bounding_box()["y"]
    assert max(game_tops) < matches_top
    assert page.locator("nav.new-match a[href='#game-mykerinos']").count() == 1
    _both_widths(page, screenshots, "usability-lobby")
    page.set_viewport_size(NARROW)
    page.locator("nav.new-match a[href='#game-mykerinos']").click()
    page.screenshot(path=str(screenshots / "usability-lobby-mykerinos-800.png"))


def test_a_seat_that_resigned_is_ranked_last_as_the_server_ranks_it(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    """The person resigns at once; the bots play on, and the final scores show the
    server's places (the resigned seat last), not the rules core's."""
    page = new_page(WIDE)
    match_id = create_match(page, web_url, "mykerinos", ["you", "bot:random", "bot:random"])
    wait_for_turn(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#leave").click()
    page.wait_for_url(f"**/matches/{match_id}/watch")
    # The page says what became of the seat (a trial landed here without a word),
    # and the lobby no longer offers to resume it.
    notice = page.locator("#notice")
    assert notice.is_visible() and notice.inner_text() == (
        "You resigned; your seat plays out and ranks last."
    )
    lobby = page.context.new_page()
    lobby.goto(web_url + "/")
    assert lobby.locator(f"#open-matches tr:has(code:text-is('{match_id}')) a.resume").count() == 0
    assert lobby.locator("#your-matches").count() == 0
    lobby.close()
    page.wait_for_selector("#final:not([hidden])", timeout=MATCH_WAIT_MS)
    resigned = page.locator("table.seats tr:has(th:has-text('Player'))")
    assert "#3" in resigned.inner_text() and "resigned" in resigned.inner_text()
    final = page.locator("#final").inner_text().splitlines()
    header = next(line for line in final if line.strip().startswith("Blue"))
    places = next(line for line in final if line.startswith("Place")).split()[1:]
    column = header.split().index("Blue")
    assert places[column] == "3rd", final
    _both_widths(page, screenshots, "usability-resigned-last")
    page.screenshot(path=str(screenshots / "usability-resigned-last-final.png"), full_page=True)

    # Its replay says where it stands, not whom it waits for.
    page.goto(f"{web_url}/matches/{match_id}/replay")
    page.wait_for_selector("#verify.ok", timeout=MATCH_WAIT_MS)
    steps = int(page.locator("#step").get_attribute("max") or 0)
    page.locator("#step").fill("12")
    wait_until(page, "() => document.body.dataset.step === '12'")
    headline = page.locator("#headline").inner_text()
    assert headline.startswith(f"Move 12 of {steps}: ") and "Waiting" not in headline
    _both_widths(page, screenshots, "usability-replay-position")
    # The steps are in the first screen at both widths, above the board.
    for size in (WIDE, NARROW):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        for control in ("#step", "#next", "#last"):
            box = page.locator(control).bounding_box()
            assert box["y"] + box["height"] < page.locator("#board").bounding_box()["y"], size
    page.set_viewport_size(WIDE)
    page.locator("#last").click()
    wait_until(page, f"() => document.body.dataset.step === '{steps}'")
    assert "3rd" in next(
        line for line in page.locator("#final").inner_text().splitlines() if "Place" in line
    )
    assert page.errors == []


def test_boards_show_the_hand_first_stacks_apart_and_the_patron_draft(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    create_match(page, web_url, "archeos", ["you"] + ["bot:random"] * 5)
    wait_for_turn(page)
    hand = page.locator("#board section:has(h3:text-is('Your hand'))")
    # The board is drawn after the turn's headline: wait for the hand itself.
    hand.wait_for(state="visible", timeout=MATCH_WAIT_MS)
    assert hand.bounding_box()["y"] + 60 < WIDE["height"]
    # A turn starts with taking from the display, drawing or leading: the display's
    # cards are in the first screen too, at both widths.
    for size in (WIDE, NARROW):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        card = page.locator("#board section:has(h3:text-is('Display')) [data-target]").first
        box = card.bounding_box()
        assert box["y"] + box["height"] < size["height"], size
    page.set_viewport_size(WIDE)
    _both_widths(page, screenshots, "usability-archeos-board")
    page.locator("#board svg[aria-label^='The site tracks']").screenshot(
        path=str(screenshots / "usability-archeos-stacks.png")
    )

    page.goto(web_url + "/")
    form = page.locator("section:has(h2#game-mykerinos) form.create")
    form.locator("input[type=checkbox][name='opt:quick']").check()
    for seat, choice in enumerate(["you", "bot:greedy", "bot:random", ""]):
        form.locator(f"select[name=seat{seat}]").select_option(choice)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*/play")
    page.wait_for_selector("#board section.draft", timeout=MATCH_WAIT_MS)
    seat_names = page.locator("table.seats th[scope=row]").all_inner_texts()
    player_names = page.locator("#board table.players th[scope=row]").all_inner_texts()
    assert [name.strip() for name in player_names] == [name.strip() for name in seat_names]
    _both_widths(page, screenshots, "usability-mykerinos-draft")
    assert page.errors == []


def test_what_just_happened_heads_the_page_and_the_log_sits_beside_the_board(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    create_match(page, web_url, "marenostrum", ["you", "bot:random", "bot:random"])
    wait_for_turn(page)
    # The bots move in between (a turn of several steps may come first): the headline
    # then says what they did.
    for _turn in range(40):
        version = page.evaluate("document.body.dataset.version")
        page.locator("#actions button.action").first.click()
        wait_until(page, f"() => document.body.dataset.version !== '{version}'")
        wait_for_turn(page)
        if page.locator("#recent:not([hidden])").count():
            break
    assert page.locator("#recent li").count() >= 1
    board = page.locator(".board-area").bounding_box()
    log = page.locator("#log").bounding_box()
    actions = page.locator("#actions-panel").bounding_box()
    assert log["x"] > board["x"] + board["width"] - 1  # beside the board
    assert log["y"] < actions["y"]  # above the list of actions, not under it
    assert log["y"] < WIDE["height"]
    keys = page.eval_on_selector_all("#log li", "items => items.map((li) => li.dataset.key || '')")
    assert all(a != b for a, b in itertools.pairwise(keys) if a)
    _check_log_folded(page)
    _both_widths(page, screenshots, "usability-recent-and-log")
    assert page.errors == []


def test_mare_nostrum_names_read_at_full_size_and_the_trade_rule_heads_the_board(
    web_url: str, new_page: Callable[[dict[str, int]], Any], screenshots: Path
) -> None:
    page = new_page(WIDE)
    create_match(page, web_url, "marenostrum", ["you", "bot:random", "bot:random"])
    wait_for_turn(page)
    name_height = page.evaluate(
        "document.querySelector('#board .mn-main text.mn-name').getBoundingClientRect().height"
    )
    assert name_height >= 11  # px on screen at 100% zoom: a 10.5 px font, not ~7 px
    _both_widths(page, screenshots, "usability-marenostrum-map")
    page.locator("#board .zoom-bar button[data-zoom='in']").first.click()
    assert page.locator("#board .mn-main").get_attribute("data-zoom") == "1.25"
    page.screenshot(path=str(screenshots / "usability-marenostrum-zoomed-1280.png"))
    for _turn in range(40):  # click on until a trade offer or a payment needs the rule
        if page.locator("#board .mn-rule").count():
            break
        version = page.evaluate("document.body.dataset.version")
        page.locator("#actions button.action").first.click()
        wait_until(page, f"() => document.body.dataset.version !== '{version}'")
        wait_for_turn(page)
    rule = page.locator("#board .mn-rule")
    assert rule.count() == 1 and (
        "tax first" in rule.inner_text() or "one set" in rule.inner_text()
    )
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator("#board [data-hand]").bounding_box()["y"] < WIDE["height"]
    # The traders' interleaved offers: one line per trader in what just happened, and
    # in the live log no two alike lines with only other traders' offers between.
    recent = page.eval_on_selector_all("#recent li", "items => items.map((li) => li.textContent)")
    offering = [line.split(":")[0] for line in recent if "has offered" in line]
    assert len(offering) == len(set(offering)), recent
    _check_log_folded(page)
    _both_widths(page, screenshots, "usability-marenostrum-rule")
    assert page.errors == []
