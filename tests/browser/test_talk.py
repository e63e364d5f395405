"""Two players chat at a table with a turn clock, and the clock runs out on one of them:
the table counts down and warns, the stand-in bot finishes the turn and the log says so.
Also the "your turn" alert switches, kept across a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .geometry import covered_by
from .ui import button, screenshot

# What the open chat must never cover at a desktop table.
PARTS = (".pboard", ".pscore", "#log", "#me-area", "#board-area", "#actionbar", "#supply")

pytestmark = pytest.mark.browser


def join_as(page: Page, url: str, name: str, seat: int) -> None:
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    button(page, f"Sit in seat {seat}").click()
    expect(page.get_by_text("(you)")).to_be_visible()


def chat(page: Page) -> None:
    if page.locator("#talk").is_hidden():
        page.locator("#talk-toggle").click()
    expect(page.locator("#talk")).to_be_visible()


def test_two_players_chat_and_a_clock_runs_out(new_page) -> None:
    alice, bob = new_page(width=1366, height=768), new_page(width=360, height=740)
    alice.goto("/")
    alice.get_by_text("More options").click()
    alice.get_by_label("Turn clock").select_option(label="1 min per turn + 5 min bank")
    alice.get_by_role("button", name="Create table").click()
    alice.wait_for_url(re.compile(r"/r/"))
    alice.get_by_label("Your name").fill("Alice")
    button(alice, "Sit in seat 1").click()
    expect(alice.get_by_text("(you, host)")).to_be_visible()
    url = alice.url
    # The host changes the clock while waiting: a custom 10 s per turn, no bank.
    expect(alice.locator("#clock-setting")).to_contain_text("1 min per turn + 5 min bank")
    alice.locator("#clock-setting select").select_option("custom")
    alice.locator("#clock-turn").fill("10")
    alice.locator("#clock-bank").fill("0")
    alice.get_by_role("button", name="Set clock").click()
    expect(alice.locator("#clock-setting")).to_contain_text("10 s per turn + 0 s bank")
    join_as(bob, url, "Bob", 2)
    expect(bob.locator("#clock-setting")).to_contain_text("10 s per turn + 0 s bank")

    # Chat before the start: plain text only, reactions one click away, on a phone too.
    chat(alice)
    alice.get_by_label("Message").fill("hi <b>Bob</b>")
    alice.get_by_role("button", name="Send").click()
    chat(bob)
    said = bob.locator("#talk-list .talk-msg").last
    expect(said).to_contain_text("Alice")
    expect(said).to_contain_text("hi <b>Bob</b>")
    assert said.locator("b").count() == 0  # text, never HTML
    expect(bob.locator("#talk-live")).to_contain_text("Alice: hi <b>Bob</b>")
    bob.get_by_role("button", name="good game").click()
    # Reactions are our own drawings, never emoji (no colour-emoji font needed).
    last = alice.locator("#talk-list .talk-msg").last
    expect(last.get_by_role("img", name="good game")).to_be_visible()
    box = bob.locator("#talk").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 361
    screenshot(bob, "talk-chat-360")
    bob.locator(".talk-close").click()

    # Alice mutes Bob for herself; Bob's next message does not reach her.
    alice.get_by_role("button", name="Mute Bob").first.click()
    chat(bob)
    bob.get_by_label("Message").fill("muted line")
    bob.get_by_role("button", name="Send").click()
    expect(bob.locator("#talk-list")).to_contain_text("muted line")
    alice.wait_for_timeout(500)
    expect(alice.locator("#talk-list")).not_to_contain_text("muted line")
    bob.locator(".talk-close").click()
    alice.locator(".talk-close").click()

    # The game starts; whoever is to act first does nothing and their clock runs out.
    button(alice, "Start the game").click()
    clock = alice.locator("#turn-clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_class(re.compile(r"\bwarn\b"))  # 10 s: the last 10 s at once
    first = "Alice" if "Alice" in clock.inner_text() else "Bob"
    other = "Bob" if first == "Alice" else "Alice"
    slow = alice if first == "Alice" else bob
    expect(bob.locator("#turn-clock")).to_contain_text(first)
    expect(slow.locator("#turn-clock")).to_have_class(re.compile(r"\bmine\b"))
    screenshot(alice, "talk-clock-1366")
    # Issue 26: the moment time runs out the late player is told so, and offered nothing
    # to click while the bot finishes (a few quick moves: recorded as they are shown).
    slow.evaluate("""() => {
      window.shown = [];
      const status = document.getElementById("status");
      const root = document.getElementById("table-root");
      const undo = document.getElementById("undo-btn");
      new MutationObserver(() => window.shown.push(
        [status.textContent, root.classList.contains("my-turn"), !undo.hidden && !undo.disabled]))
        .observe(status, { childList: true, characterData: true, subtree: true });
    }""")
    expect(alice.locator("#log-list")).to_contain_text(
        f"{first} ran out of time: a bot finishes the turn.", timeout=20_000)
    # The stand-in finished the turn: now the other player's clock runs.
    expect(bob.locator("#turn-clock")).to_contain_text(other, timeout=20_000)
    # Back in control, the player is told what the bot did for them.
    # Issue 43: all of it, in order, said to them ("placed your meeple on …, …").
    expect(slow.locator("#toast")).to_contain_text("While a bot played for you: ")
    told = slow.locator("#toast").inner_text()
    assert "your" in told and first not in told and "(and" not in told, told
    assert not re.search(r"[rR]\d[cC]\d", told), told
    shown = slow.evaluate("window.shown")
    time_up = [s for s in shown if s[0] == "Time's up — a bot is finishing your turn"]
    assert time_up and not any(mine for _, mine, _ in time_up), shown
    assert not any(undo for _, _, undo in time_up), f"Undo offered while time is up: {shown}"
    assert not any(text == "Your turn" for text, _, _ in shown[shown.index(time_up[0]):]), shown
    expect(alice.locator("#turn-clock")).to_contain_text(other)
    expect(slow.locator("#away-note")).to_be_hidden()

    # Issue 26: open during the game, the chat covers no score, log line or control: on a
    # desktop it is docked below your own board; on a phone it is a sheet, closed again.
    chat(alice)
    expect(alice.locator("#talk.docked")).to_be_visible()
    assert covered_by(alice, "#talk", PARTS) == []
    alice.set_viewport_size({"width": 1440, "height": 900})
    assert covered_by(alice, "#talk", PARTS) == []
    screenshot(alice, "talk-docked-1440", full_page=False)
    chat(bob)
    expect(bob.locator("#talk.docked")).to_have_count(0)


def test_alert_choices_are_kept(new_page, base_url) -> None:
    page = new_page(width=1440, height=900, locale="th-TH")
    page.goto("/")
    page.get_by_role("button", name="สร้างโต๊ะ").click()
    page.wait_for_url(re.compile(r"/r/"))
    chat(page)
    page.locator("#alerts summary").click()
    title = page.locator("#alert-title")
    expect(title).to_be_checked()
    title.uncheck()
    page.reload()
    chat(page)
    page.locator("#alerts summary").click()
    expect(page.locator("#alert-title")).not_to_be_checked()
    expect(page.locator("#alerts summary")).to_have_text("แจ้งเตือนเมื่อถึงตาคุณ")
    screenshot(page, "talk-alerts-th-1440")
