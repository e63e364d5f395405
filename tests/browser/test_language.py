"""Language quality, checked in the browser's own JavaScript: plurals through
Intl.PluralRules, Korean particles chosen by the final sound of the word before them, and
every language table complete."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# English-only helpers: plural phrases that Thai and Korean write inline, without forms.
EN_ONLY_PREFIX = "count."


@pytest.fixture(scope="module")
def page(browser, base_url: str):  # noqa: ANN001, ANN201
    """One page for the module's i18n questions: each one sets the language it asks in, so
    the page need not be loaded again per question."""
    ctx = browser.new_context(base_url=base_url, locale="en-US")
    ctx.set_default_timeout(10_000)
    p = ctx.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.goto("/rules")
    yield p
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def t(page, lang: str, key: str, params: dict) -> str:  # noqa: ANN001
    return page.evaluate("""async ([lang, key, params]) => {
      const i18n = await import('/static/js/lang/i18n.js');
      i18n.setLang(lang);
      return i18n.t(key, params);
    }""", [lang, key, params])


def test_english_plurals_follow_the_count(page) -> None:  # noqa: ANN001
    assert t(page, "en", "pb.score", {"n": 1}) == "1 point"
    assert t(page, "en", "pb.score", {"n": 0}) == "0 points"
    assert t(page, "en", "pb.score", {"n": -3}) == "-3 points"
    assert t(page, "en", "ev.stopped", {"name": "Ada", "cell": "ice (R1C1)", "steps": 1}) == (
        "Ada stopped on ice (R1C1) after 1 step.")
    assert t(page, "en", "prompt.move", {"free": 1, "rush": 2}) == (
        "Step to a highlighted cell (1 free step left, 2 Rush Tokens).")
    assert t(page, "en", "games.total", {"n": 1}) == "1 finished game"
    assert t(page, "th", "pb.score", {"n": 1}) == "1 คะแนน"


@pytest.mark.parametrize(("name", "expected"), [
    ("민준", "민준이 앉았습니다."),      # final ㄴ: 이
    ("지수", "지수가 앉았습니다."),      # vowel: 가
    ("Bram", "Bram이 앉았습니다."),      # 브램: a final consonant
    ("Alice", "Alice가 앉았습니다."),    # 앨리스: a vowel
    ("Robot 2", "Robot 2가 앉았습니다."),  # 이: a vowel
    ("Robot 1", "Robot 1이 앉았습니다."),  # 일: a final consonant
])
def test_korean_subject_particle(page, name: str, expected: str) -> None:  # noqa: ANN001
    assert t(page, "ko", "ev.joined", {"name": name}) == expected


def test_korean_object_and_direction_particles(page) -> None:  # noqa: ANN001
    moved = t(page, "ko", "ev.moved", {"name": "Bram", "cell": "커피 (R3C4)", "gain": "1 커피"})
    assert moved == "Bram이 커피 (R3C4)로 이동해 1 커피를 얻었습니다."
    moved = t(page, "ko", "ev.moved", {"name": "지수", "cell": "우유 (R1C3)", "gain": "2 얼음"})
    assert moved == "지수가 우유 (R1C3)으로 이동해 2 얼음을 얻었습니다."
    assert "(" not in t(page, "ko", "ev.upgrade_skipped", {"name": "민준"}).replace("(R", "")


def test_every_language_has_every_string(page) -> None:  # noqa: ANN001
    missing = page.evaluate("""async (enOnly) => {
      const [en, th, ko] = await Promise.all(['en', 'th', 'ko'].map(
        (l) => import(`/static/js/lang/${l}.js`).then((m) => m.default)));
      await import('/static/js/lang/history.js');
      const out = {};
      for (const [name, table] of [['th', th], ['ko', ko]]) {
        out[name] = Object.keys(en).filter((k) => !(k in table) && !k.startsWith(enOnly));
      }
      return out;
    }""", EN_ONLY_PREFIX)
    assert missing == {"th": [], "ko": []}


def test_rules_page_covers_two_players_with_diagrams(new_page) -> None:  # noqa: ANN001
    page = new_page(width=1366, locale="ko-KR")
    page.goto("/rules")
    from playwright.sync_api import expect

    expect(page.get_by_role("heading", name="2인 게임")).to_be_visible()
    expect(page.locator("h2 + ul.steps li")).to_have_count(4)
    figures = page.get_by_role("img", name=__import__("re").compile("이동|붓기|시간의 흐름"))
    expect(figures).to_have_count(3)
    for box in (f.bounding_box() for f in figures.all()):
        assert box is not None and box["width"] > 150 and box["height"] > 100
