"""Motion that shows what happened (issue 26): another player's move is played on the table
(the meeple walks, tokens fly, orders slide) with the Web Animations API and then ends; with
prefers-reduced-motion: reduce nothing moves; a click during an animation acts at once (every
animation jumps to its end); a reload replays nothing. Asserted by the page's animations and
geometry, never by the clock."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .test_full_games import seat_in_new_game
from .ui import CANDIDATES, save_shot, settled, wait_for

pytestmark = pytest.mark.browser

MINE = "document.getElementById('table-root').classList.contains('my-turn')"
SETTLED = "() => document.body.dataset.busy === '0' && !document.getElementById('game').hidden"
# The motion module names its animations "motion-<what>" (the targets' own CSS pulses are not).
RUNNING = """() => document.getAnimations()
  .filter(a => String(a.id).startsWith('motion-') && a.playState === 'running')
  .map(a => a.id)"""
# Every motion animation started since the page loaded, counted by a wrapper put in first.
COUNT_ANIMATIONS = """(() => {
  window.__motion = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    if (opts && String(opts.id).startsWith('motion-')) window.__motion.push(opts.id);
    return animate.call(this, frames, opts);
  };
})();"""
BOXES = """() => Object.fromEntries(['board', 'me-area'].map(id => {
  const r = document.getElementById(id).getBoundingClientRect();
  return [id, [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]];
}))"""
# Freeze every motion animation at the moment the first of them is halfway.
FREEZE = """() => {
  const anims = document.getAnimations().filter(a => String(a.id).startsWith('motion-'));
  if (!anims.length) return 0;
  const at = Math.min(...anims.map(a => {
    const t = a.effect.getComputedTiming();
    return t.delay + t.activeDuration / 2;
  }));
  for (const a of anims) { a.pause(); a.currentTime = at; }
  return anims.length;
}"""
THAW = """() => document.getAnimations()
  .filter(a => String(a.id).startsWith('motion-')).forEach(a => a.play())"""


def play_mine(page: Page, rng: random.Random) -> None:
    count = page.evaluate(CANDIDATES)
    assert count > 0, "my turn, yet nothing to click"
    page.locator(f'[data-cand="{rng.randrange(count)}"]').click()
    settled(page)


def watch_a_move(page: Page, rng: random.Random, turns: int = 40) -> list[str]:
    """Play on until another player's move is being animated; the running animations."""
    for _ in range(turns * 10):
        wait_for(page, SETTLED)
        if page.evaluate(MINE):
            play_mine(page, rng)
            # My own move's motion ends at a click: what runs next is someone else's.
            page.evaluate("document.dispatchEvent(new PointerEvent('pointerdown'))")
            page.evaluate("window.scrollTo(0, 0)")  # the board in sight, on a phone too
            continue
        for _ in range(100):  # poll while the others play
            running = page.evaluate(RUNNING)
            if running:
                return running
            if page.evaluate(MINE):
                break
            page.wait_for_timeout(30)
    raise AssertionError("no other player's move was animated")


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (360, 740)])
def test_another_players_move_is_animated_and_ends(new_page, base_url: str, width: int,
                                                   height: int) -> None:  # noqa: ANN001
    page = new_page(width=width, height=height, reduced_motion="no-preference")
    seat_in_new_game(page, base_url, 3, "Mina", delay=0.5)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(3)
    seen: set[str] = set()
    for k in range(8):
        running = watch_a_move(page, rng)
        seen.update(running)
        before = page.evaluate(BOXES)
        if k < 3 and page.evaluate(FREEZE):
            during = page.evaluate(BOXES)
            save_shot(page, f"motion-{width}-{k}")
            page.evaluate(THAW)
            assert during == before, "an animation moved the layout"
        # Each of them ends: nothing loops.
        page.evaluate("window.__watched = document.getAnimations()"
                      ".filter(a => String(a.id).startsWith('motion-'))")
        wait_for(page, "() => window.__watched.every(a => a.playState === 'finished')")
        if k >= 2 and {"motion-walk", "motion-gain"} <= seen:
            break
    assert "motion-walk" in seen, f"the meeple never walked: {seen}"
    assert "motion-gain" in seen, f"no token flew to the hand: {seen}"
    assert not page.evaluate("document.querySelector('.motion-layer').children.length > 20")


def test_reduced_motion_moves_nothing(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900, reduced_motion="reduce")
    page.add_init_script(COUNT_ANIMATIONS)
    seat_in_new_game(page, base_url, 2, "Mina", delay=0.3)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(4)
    others = 0
    highlighted = False
    for _ in range(200):
        wait_for(page, SETTLED)
        if page.evaluate(MINE):
            play_mine(page, rng)
            continue
        v = page.evaluate("document.body.dataset.v")
        wait_for(page, f"() => document.body.dataset.v !== '{v}'")
        others += 1
        assert page.evaluate("document.getAnimations().length") == 0, "something moved"
        highlighted = highlighted or page.evaluate("!!document.querySelector('.motion-hl')")
        if others >= 8 and highlighted:
            break
    assert page.evaluate("window.__motion.length") == 0, page.evaluate("window.__motion")
    assert highlighted, "what changed was never shown"


def test_a_click_during_an_animation_acts_at_once(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900, reduced_motion="no-preference")
    seat_in_new_game(page, base_url, 2, "Mina", delay=0.3)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(6)
    for _ in range(40):
        wait_for(page, f"() => document.body.dataset.busy === '0' && {MINE}", timeout=60_000)
        count = page.evaluate(CANDIDATES)
        # The others' last move is still being played when the turn comes back: click now.
        got = page.evaluate("""(i) => {
          const before = document.getAnimations()
            .filter(a => String(a.id).startsWith('motion-') && a.playState === 'running').length;
          const v = document.body.dataset.v;
          document.querySelector(`[data-cand="${i}"]`).click();
          const after = document.getAnimations()
            .filter(a => String(a.id).startsWith('motion-') && a.playState === 'running').length;
          return {before, after, v, sent: document.body.dataset.busy === '1'};
        }""", rng.randrange(count))
        assert got["after"] == 0, f"animations still running after a click: {got}"
        settled(page)
        if got["before"] and got["sent"]:
            assert page.evaluate("document.body.dataset.v") != got["v"], "the action was lost"
            return
    raise AssertionError("never clicked during an animation")


def test_a_reload_replays_nothing(new_page, base_url: str) -> None:  # noqa: ANN001
    page = new_page(width=1440, height=900, reduced_motion="no-preference")
    page.add_init_script(COUNT_ANIMATIONS)
    seat_in_new_game(page, base_url, 2, "Mina", delay=0.2)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(7)
    for _ in range(3):  # a few turns, so that there is something to replay
        wait_for(page, f"() => document.body.dataset.busy === '0' && {MINE}", timeout=60_000)
        play_mine(page, rng)
    wait_for(page, f"() => document.body.dataset.busy === '0' && {MINE}", timeout=60_000)
    assert page.evaluate("window.__motion.length") > 0, "the others' moves were not animated"
    # My turn: the others wait for me, so no live patch comes while the page reloads.
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    wait_for(page, f"() => document.body.dataset.busy === '0' && {MINE}")
    page.wait_for_timeout(500)  # room for a (wrong) replay to start
    assert page.evaluate("window.__motion") == []
    assert page.evaluate(RUNNING) == []


def test_a_penalty_lands_marked(new_page, base_url: str) -> None:  # noqa: ANN001
    """Orders pushed off the last tab fly to the penalty pile with a mark on them (and a served
    order to the done pile, when one is served on the way)."""
    page = new_page(width=1440, height=900, reduced_motion="no-preference")
    seat_in_new_game(page, base_url, 2, "Mina", delay=0.3)
    page.wait_for_selector("#game:not([hidden])")
    rng = random.Random(9)
    shot: dict = {}
    for _ in range(4000):
        running = page.evaluate(RUNNING)
        if not running and page.evaluate(SETTLED) and page.evaluate(MINE):
            play_mine(page, rng)  # once the others' motion is over: theirs fall as mine begins
            continue
        for what in ("penalty", "serve"):
            if f"motion-{what}" in running and what not in shot and page.evaluate(FREEZE):
                shot[what] = page.evaluate(
                    "() => [...document.querySelectorAll('.motion-layer > .motion-fly')].map(e =>"
                    " e.className + (e.querySelector('.motion-penalty') ? ' marked' : ''))")
                save_shot(page, f"motion-{what}-1440")
                page.evaluate(THAW)
        if "penalty" in shot or page.locator("#final").is_visible():
            break
        page.wait_for_timeout(20)
    assert any("marked" in c for c in shot.get("penalty", [])), shot


def watched_game(new_page, width: int, height: int) -> tuple[Page, Page, Page, Any]:  # noqa: ANN001
    """Alice (seat 1, first) and Bob at a table of test_play's seed, a watcher whose page
    counts the motion it plays; the game started and past its set-up (the engine's copy)."""
    from server.rules import legal_actions, new_game

    from .test_play import SEED, act, open_table

    alice = new_page(width=1440, height=900)
    url = open_table(alice)
    bob = new_page(width=1024)
    bob.goto(url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit in seat 2", exact=True).click()
    watcher = new_page(width=width, height=height, reduced_motion="no-preference")
    watcher.add_init_script(COUNT_ANIMATIONS)
    watcher.goto(url)
    watcher.get_by_text("Every seat is taken — you are watching.").wait_for()
    alice.get_by_role("button", name="Start the game", exact=True).click()
    game = new_game(SEED, 2, 0, False)
    pages = {0: alice, 1: bob}
    while game.phase in ("placement", "starting_cup"):
        act(pages[game.current], game, legal_actions(game)[0])
    return alice, bob, watcher, game


def test_a_watcher_sees_an_order_served_and_the_score_count_up(new_page) -> None:  # noqa: ANN001
    """Alice plays turns that seek to serve (test_play's planner); a watcher at 360×740 sees her
    served order slide to the done pile and her score count up."""
    from .test_play import move_turn

    alice, bob, watcher, game = watched_game(new_page, 360, 740)
    pages = {0: alice, 1: bob}
    for _ in range(12):
        seat = game.current
        before = len(game.players[0].completed)
        move_turn(pages[seat], game, seat)
        settled(pages[seat])
        v = pages[seat].evaluate("document.body.dataset.v")
        wait_for(watcher, f"() => document.body.dataset.v === '{v}'")
        if seat == 0 and len(game.players[0].completed) > before:
            break
    else:
        raise AssertionError("Alice never served an order")
    seen = watcher.evaluate("window.__motion")
    assert "motion-serve" in seen and "motion-score" in seen, seen
    # Once the motion is over, the score shown is the score (Alice's own page shows it still).
    wait_for(watcher, "() => !document.getAnimations()"
             ".some(a => String(a.id).startsWith('motion-'))")
    score = '.pboard[data-seat="0"] .pscore'
    assert watcher.locator(score).text_content() == alice.locator(score).text_content()


def test_a_watcher_sees_an_undo_rewind_and_a_token_go_back(new_page) -> None:  # noqa: ANN001
    """Alice steps and takes it back (the meeple rewinds the way it came); Bob returns a
    token he gained to the supply (it flies there). The watcher's table plays both."""
    from server.rules import legal_actions

    from .test_play import act, move_turn

    alice, bob, watcher, game = watched_game(new_page, 1440, 900)

    def seen_by_watcher(page: Page) -> list[str]:
        v = page.evaluate("document.body.dataset.v")
        wait_for(watcher, f"() => document.body.dataset.v === '{v}'")
        return list(watcher.evaluate("window.__motion"))

    assert game.current == 0
    move_turn(alice, game, 0, try_undo=True)
    assert "motion-rewind" in seen_by_watcher(alice)
    returned = False
    while game.current == 1:
        legal = legal_actions(game)
        kinds = {a["type"]: a for a in legal}
        if "return" in kinds and not returned:
            act(bob, game, kinds["return"])
            returned = True
        elif "step" in kinds and "stop" not in kinds:
            act(bob, game, kinds["step"])
        else:
            act(bob, game, next((kinds[k] for k in ("stop", "done_pouring", "skip_upgrade",
                                                     "end_turn") if k in kinds), legal[0]))
    assert returned, "Bob had no token to give back"
    assert "motion-return" in seen_by_watcher(bob)


def test_a_watcher_sees_an_upgrade_spend_its_orders_and_light_up(new_page, base_url: str) -> None:  # noqa: ANN001
    """R-UPG: a player spends three completed orders on an upgrade tile. Two greedy players
    act over their sockets until one upgrades; the watcher's table flies the spent orders
    from that player's done pile to the tile, which lights up."""
    from types import SimpleNamespace

    from server.bots import greedy
    from server.bots.budget import Budget
    from tests.persist.live import Table

    server = SimpleNamespace(http=base_url,
                             ws=lambda code: base_url.replace("http", "ws", 1) + f"/ws/{code}")
    table = Table(server, 2, seed=11)  # type: ignore[arg-type]
    watcher = new_page(width=1440, height=900, reduced_motion="no-preference")
    watcher.add_init_script(COUNT_ANIMATIONS)
    watcher.goto(f"/r/{table.code}")
    watcher.wait_for_selector("#game:not([hidden])")
    rng = random.Random(11)
    try:
        for _ in range(2000):
            actor = table.current()
            view = actor.game()
            assert view["phase"] != "over", "nobody upgraded in a whole game"
            action = greedy.choose(view, rng, Budget(1.0))
            if action["type"] == "upgrade":
                # The watcher has caught up and its motion is over: the next is the upgrade's.
                wait_for(watcher, f"() => document.body.dataset.v === '{actor.v}'")
                wait_for(watcher, "() => !document.getAnimations()"
                         ".some(a => String(a.id).startsWith('motion-'))")
                watcher.evaluate("window.__motion = []")
                # Issue 43: until one lights up, the faint tiles have a heading.
                expect(watcher.locator(f'#me-area .pboard[data-seat="{view["seat"]}"] .tiles-title')
                       ).to_be_visible()
                actor.act(action)
                break
            actor.act(action)
        else:
            raise AssertionError("the game did not end")
        wait_for(watcher, f"() => document.body.dataset.v === '{actor.v}'")
        seat, tile = view["seat"], action["tile"]
        target = wait_for(watcher, """() => {
          const a = document.getAnimations().find(a => a.id === 'motion-upgrade');
          return a && a.effect.target.closest('.pboard') && [
            a.effect.target.closest('.pboard').dataset.seat, a.effect.target.dataset.tile];
        }""")
        assert target == [str(seat), tile]
        assert watcher.evaluate("window.__motion").count("motion-spend") == 3
        expect(watcher.locator(f'.pboard[data-seat="{seat}"] .tiles-title')).to_be_hidden()
        save_shot(watcher, "motion-upgrade-1440")
    finally:
        table.close()


# The first penalised order in flight, frozen just after it takes off (8 % of its flight), and
# an order of the same board still on its tab: the flying card's box and the box it left, the
# size of the one still there, their least recipe icons and whether the flying card's name shows.
FLYING_CARD = """() => {
  const a = document.getAnimations().find((x) => x.id === 'motion-penalty');
  if (!a) return null;
  const t = a.effect.getComputedTiming();
  const at = t.delay + t.activeDuration * 0.08;
  for (const x of document.getAnimations().filter((x) => String(x.id).startsWith('motion-'))) {
    x.pause(); x.currentTime = at;
  }
  const card = a.effect.target.querySelector('.card');
  const seat = [...document.querySelectorAll('#players .pboard.compact')]
    .find((p) => p.querySelector('.tab .card'));
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; };
  const still = seat.querySelector('.tab .card');  // (its layout box: it may be being dealt)
  const least = (c) => Math.min(...[...c.querySelectorAll('.recipe .ico')].map((i) => box(i)[0]));
  const from = a.effect.target.style;  // the card's box on its tab as it left (motion.js)
  return {fly: box(card), from: [parseFloat(from.width), parseFloat(from.height)],
          card: [still.offsetWidth, still.offsetHeight], ico: least(card),
          still: Math.min(...[...still.querySelectorAll('.recipe .ico')]
            .map((i) => parseFloat(getComputedStyle(i).width))),
          name: card.querySelector('.card-name').checkVisibility(),
          look: a.effect.target.className};
}"""


def test_an_opponents_penalty_flies_as_the_card_it_is(new_page, base_url: str) -> None:  # noqa: ANN001
    """Issue 43: on a desktop the opponents' orders are drawn as cards (20-25 px icons); one
    pushed off their last tab flies to the penalty pile at that size, drawn as that card (its
    name, its cup), not as a small chip."""
    from .test_zoom_leaves import first, sync, table, to_rivals_turn

    page, rival = table(new_page, base_url, reduced_motion="no-preference")
    rng = random.Random(2)
    got = None
    for _ in range(12):  # Rival never serves: its orders fall off tab 4 within a few turns
        to_rivals_turn(page, rival, rng)
        while rival.game()["current"] == 1 and got is None:
            g = rival.game()
            rival.act(first(g["legal"], "stop", "done_pouring", "skip_upgrade", "end_turn"))
            for _ in range(40):
                got = page.evaluate(FLYING_CARD)
                if got or int(page.evaluate("document.body.dataset.v")) >= rival.v:
                    break
                page.wait_for_timeout(10)
            if got is None:
                got = page.evaluate(FLYING_CARD)
        if got:
            break
        sync(page, rival)
    assert got, "no opponent's order was penalised"
    save_shot(page, "motion-opponent-penalty-1440")
    page.evaluate(THAW)
    print("penalty in flight", got)
    assert "opp-card" in got["look"], got
    (fw, fh), (sw, sh), (cw, _) = got["fly"], got["from"], got["card"]
    # (tilted by a degree as it takes off: a pixel or two more)
    assert abs(fw - sw) <= 4 and abs(fh - sh) <= 4 and abs(fw - cw) <= 4, \
        f"the card flies at another size: {got}"
    assert got["ico"] >= 19.5 and abs(got["ico"] - got["still"]) <= 1 and got["name"], \
        f"the card flies as a chip: {got}"
