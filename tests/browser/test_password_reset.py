"""A forgotten password in Chromium (issue 46), at 360 in en, th and ko, at 1440 in en, with a real
SMTP server: a player confirms an e-mail address on the account page with the mailed code;
on another device, "Forgot your password?" mails a link; the link's page sets a new password
and the player is signed in there, while the first device is signed out. Signed in again,
the sessions list shows both devices, this one marked; "Sign out everywhere" ends both."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.notify.smtp import SmtpServer, body, code_in
from tests.serving import served

from .ui import no_sideways_scroll, screenshot

pytestmark = pytest.mark.browser
TOKEN = re.compile(r"/account/reset#token=([A-Za-z0-9_-]+)")
# A few of the page's words per language: the page speaks the browser's language.
WORDS = {
    "en-US": {"forgot": "Forgot your password?", "reset": "Set a new password",
              "sessions": "Where you are signed in", "here": "This browser"},
    "th-TH": {"forgot": "ลืมรหัสผ่าน?", "reset": "ตั้งรหัสผ่านใหม่",
              "sessions": "อุปกรณ์ที่เข้าสู่ระบบอยู่", "here": "เบราว์เซอร์นี้"},
    "ko-KR": {"forgot": "비밀번호를 잊으셨나요?", "reset": "새 비밀번호 설정",
              "sessions": "로그인된 곳", "here": "이 브라우저"},
}
INSIDE = """(sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent)
  .every((e) => { const r = e.getBoundingClientRect();
                  return r.left >= 0 && r.right <= innerWidth + 0.5 && r.width > 0; })"""
OVERLAPS = """(sel) => { const r = [...document.querySelectorAll(sel)].filter((e) => e.offsetParent)
  .map((e) => e.getBoundingClientRect());
  return r.some((a, i) => r.some((b, j) => i < j && a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom)); }"""


@pytest.fixture(scope="module")
def mail_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, SmtpServer]]:
    smtp = SmtpServer()
    smtp.start()
    settings = {k: str(v) for k, v in smtp.settings().items() if k != "PUBLIC_URL"}
    try:
        # Every run comes from one address: the per-address budgets of link checks, resets and
        # session lists (tests/accounts/test_reset_edge.py) would refuse the later runs.
        with served(tmp_path_factory.mktemp("reset") / "reset.db", BOT_WORKERS="0",
                    SIGN_UPS_PER_ADDRESS="1000", RESET_RATE="1000", SESSIONS_RATE="1000",
                    **settings) as url:
            yield url, smtp
    finally:
        smtp.stop()


def mail_to(smtp: SmtpServer, address: str, count: int) -> Any:
    mails = [m for m in smtp.wait_for(len(smtp.received()) + 1, timeout=10)
             if m["To"] == address]
    for _ in range(100):
        if len(mails) >= count:
            break
        mails = [m for m in smtp.wait_for(len(smtp.received()) + 1, timeout=0.1)
                 if m["To"] == address]
    assert len(mails) >= count, [m["Subject"] for m in smtp.received()]
    return mails[count - 1]


def fits(page: Page, name: str) -> None:
    """Nothing scrolls sideways, every control is inside the window, none on another."""
    no_sideways_scroll(page)
    assert page.evaluate(INSIDE, "main button, main input, main a.btn, .session-list li")
    assert not page.evaluate(OVERLAPS, "main button:not([hidden]), main input")
    screenshot(page, name)


# Each language at the phone's width (where a longer sentence would push a control off the
# screen), and the desktop once: the path is the same at every size and in every language.
@pytest.mark.parametrize(("locale", "width"), [
    ("en-US", 360), ("th-TH", 360), ("ko-KR", 360), ("en-US", 1440)])
def test_forgot_mail_reset_signed_in_then_sign_out_everywhere(
        browser: Any, mail_site: tuple[str, SmtpServer], locale: str, width: int) -> None:
    url, smtp = mail_site
    words, tag = WORDS[locale], f"{width}-{locale[:2]}"
    name, address = f"Reset {tag}", f"reset-{tag}@example.org"
    errors: list[str] = []

    def device(agent: str) -> Page:
        ctx = browser.new_context(base_url=url, locale=locale, user_agent=agent,
                                  viewport={"width": width, "height": 900 if width > 400 else 740})
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    laptop = device("Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36")
    phone = device("Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36")
    try:
        # The laptop: an account with a password, and its address confirmed by the code.
        assert laptop.request.post(f"{url}/api/accounts", data={
            "name": name, "password": "old password"}).status == 201
        laptop.goto("/account")
        laptop.locator("#email-address").fill(address)
        laptop.locator("#email-send").click()
        code = code_in(mail_to(smtp, address, 1))
        laptop.locator("#email-code").fill(code)
        laptop.locator("#code-btn").click()
        expect(laptop.locator("#email-state")).to_contain_text("r***@example.org")
        expect(laptop.locator("#code-form")).to_be_hidden()

        # The phone: forgot; the link from the mail; a new password; signed in there.
        phone.goto("/account")
        forgot = phone.locator("#forgot summary")
        expect(forgot).to_have_text(words["forgot"])
        forgot.click()
        phone.locator("#forgot-address").fill(address)
        fits(phone, f"reset-forgot-{tag}")
        phone.locator("#forgot-btn").click()
        expect(phone.locator("#account-note")).not_to_be_empty()
        token = TOKEN.search(body(mail_to(smtp, address, 2)))
        assert token, body(mail_to(smtp, address, 2))
        phone.goto(f"/account/reset#token={token.group(1)}")
        expect(phone.locator("#reset-h")).to_have_text(words["reset"])
        expect(phone.locator("#reset-form")).to_be_visible()
        assert "#token" not in phone.url  # out of the address bar at once
        phone.locator("#reset-password").fill("new password")
        fits(phone, f"reset-page-{tag}")
        phone.locator("#reset-btn").click()
        phone.wait_for_url(re.compile(r"/account$"))
        expect(phone.locator("#account-name")).to_contain_text(name)

        # The laptop was signed out; the old password no longer works, the new one does.
        laptop.reload()
        expect(laptop.locator("#signed-out")).to_be_visible()
        laptop.locator("#sign-in-name").fill(name)
        laptop.locator("#sign-in-password").fill("old password")
        laptop.locator("#sign-in-form button[type=submit]").click()
        expect(laptop.locator("#account-error")).not_to_be_empty()
        laptop.locator("#sign-in-password").fill("new password")
        laptop.locator("#sign-in-form button[type=submit]").click()
        expect(laptop.locator("#signed-in")).to_be_visible()

        # Both devices listed, this one marked; then signed out everywhere.
        expect(laptop.locator("#sessions-h")).to_have_text(words["sessions"])
        rows = laptop.locator("#session-list li")
        expect(rows).to_have_count(2)
        expect(rows.filter(has_text=words["here"])).to_have_count(1)
        expect(rows.filter(has_text="Android")).to_have_count(1)
        laptop.locator("#sessions-panel").scroll_into_view_if_needed()
        fits(laptop, f"reset-sessions-{tag}")
        laptop.locator("#sign-out-everywhere").click()
        expect(laptop.locator("#signed-out")).to_be_visible()
        phone.reload()
        expect(phone.locator("#signed-out")).to_be_visible()
        phone.goto(f"/account/reset#token={token.group(1)}")  # used once: it says so
        expect(phone.locator("#reset-invalid")).to_be_visible()
        expect(phone.locator("#reset-form")).to_be_hidden()
    finally:
        laptop.context.close()
        phone.context.close()
    assert not errors, errors
