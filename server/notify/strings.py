"""The e-mails' sentences, per language (the browser's are in static/js/lang/)."""

from __future__ import annotations

LANGS = ("en", "th", "ko")

STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "account_code.body": "Your code to confirm this address for your Coffee Rush account is "
                             "{code}.\nIt is valid for 15 minutes. If you did not ask for it, "
                             "ignore this message.\n",
        "reset.subject": "Coffee Rush: set a new password",
        "reset.body": "Hello,\n\nSomeone (we hope you) asked to set a new password for the "
                      "Coffee Rush account that uses this address.\nSet it here within 30 "
                      "minutes (the link works once): {link}\n\nIf you did not ask, ignore "
                      "this message: your password stays as it is.\n",
        "digest.subject": "Coffee Rush: your turn at {count} table(s)",
        "digest.body": "Hello,\n\nIt is your turn at these Coffee Rush tables:\n{lines}",
        "digest.line": "  {code}: {link}\n",
        "turn.subject": "Coffee Rush: your turn at table {code}",
        "turn.body": "Hello {name},\n\nIt is your turn at Coffee Rush table {code}.\n"
                     "Play your move here: {link}\n",
        "code.subject": "Coffee Rush: your confirmation code {code}",
        "code.body": "Your code to confirm this address for table {room} is {code}.\n"
                     "It is valid for 15 minutes. If you did not ask for it, ignore this "
                     "message.\n",
        "late.subject": "Coffee Rush: {name} ran out of time at table {code}",
        "late.body": "Hello,\n\n{name} ran out of time (turn and bank) at Coffee Rush table "
                     "{code}.\nChoose: let a bot play that turn, or end the game (kept as "
                     "abandoned). Until someone chooses, {name} may still move.\n"
                     "Choose here: {link}\n",
        "footer": "\nNo more e-mails from Coffee Rush to this address: {unsubscribe}\n",
    },
    "th": {
        "account_code.body": "รหัสยืนยันที่อยู่นี้สำหรับบัญชี Coffee Rush ของคุณคือ {code}\n"
                             "ใช้ได้ 15 นาที หากคุณไม่ได้ขอ โปรดเพิกเฉยข้อความนี้\n",
        "reset.subject": "Coffee Rush: ตั้งรหัสผ่านใหม่",
        "reset.body": "สวัสดี\n\nมีผู้ขอ (หวังว่าเป็นคุณ) ตั้งรหัสผ่านใหม่ให้บัญชี Coffee Rush "
                      "ที่ใช้ที่อยู่นี้\nตั้งได้ที่นี่ภายใน 30 นาที (ลิงก์ใช้ได้ครั้งเดียว): "
                      "{link}\n\nหากคุณไม่ได้ขอ โปรดเพิกเฉยข้อความนี้ รหัสผ่านของคุณจะยังเหมือนเดิม\n",
        "digest.subject": "Coffee Rush: ถึงตาคุณที่ {count} โต๊ะ",
        "digest.body": "สวัสดี\n\nถึงตาคุณแล้วที่โต๊ะ Coffee Rush เหล่านี้:\n{lines}",
        "digest.line": "  {code}: {link}\n",
        "turn.subject": "Coffee Rush: ถึงตาคุณที่โต๊ะ {code}",
        "turn.body": "สวัสดี {name}\n\nถึงตาคุณแล้วที่โต๊ะ Coffee Rush {code}\n"
                     "เล่นตาของคุณได้ที่นี่: {link}\n",
        "code.subject": "Coffee Rush: รหัสยืนยันของคุณ {code}",
        "code.body": "รหัสยืนยันที่อยู่นี้สำหรับโต๊ะ {room} คือ {code}\n"
                     "ใช้ได้ 15 นาที หากคุณไม่ได้ขอ โปรดเพิกเฉยข้อความนี้\n",
        "late.subject": "Coffee Rush: {name} หมดเวลาที่โต๊ะ {code}",
        "late.body": "สวัสดี\n\n{name} หมดเวลา (เวลาต่อตาและเวลาสำรอง) ที่โต๊ะ Coffee Rush "
                     "{code}\nเลือก: ให้บอทเล่นตานั้นแทน หรือจบเกม (บันทึกว่าถูกทิ้งกลางคัน) "
                     "ระหว่างที่ยังไม่มีใครเลือก {name} ยังเดินได้\nเลือกได้ที่นี่: {link}\n",
        "footer": "\nเลิกรับอีเมลจาก Coffee Rush ที่ที่อยู่นี้: {unsubscribe}\n",
    },
    "ko": {
        "account_code.body": "Coffee Rush 계정에 이 주소를 확인하는 코드는 {code}입니다.\n"
                             "15분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요.\n",
        "reset.subject": "Coffee Rush: 새 비밀번호 설정",
        "reset.body": "안녕하세요.\n\n이 주소를 쓰는 Coffee Rush 계정의 새 비밀번호 설정을 누군가"
                      "(아마 당신이) 요청했습니다.\n30분 안에 여기에서 설정하세요(링크는 한 번만 "
                      "쓸 수 있습니다): {link}\n\n요청하지 않았다면 이 메일을 무시하세요. "
                      "비밀번호는 그대로입니다.\n",
        "digest.subject": "Coffee Rush: {count}개 테이블에서 당신 차례입니다",
        "digest.body": "안녕하세요.\n\n이 Coffee Rush 테이블에서 당신 차례입니다:\n{lines}",
        "digest.line": "  {code}: {link}\n",
        "turn.subject": "Coffee Rush: {code} 테이블에서 당신 차례입니다",
        "turn.body": "{name} 님, 안녕하세요.\n\nCoffee Rush {code} 테이블에서 당신 차례입니다.\n"
                     "여기에서 두세요: {link}\n",
        "code.subject": "Coffee Rush: 확인 코드 {code}",
        "code.body": "{room} 테이블에 이 주소를 확인하는 코드는 {code}입니다.\n"
                     "15분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요.\n",
        "late.subject": "Coffee Rush: {code} 테이블에서 {name} 님의 시간이 다 되었습니다",
        "late.body": "안녕하세요.\n\nCoffee Rush {code} 테이블에서 {name} 님의 시간(턴 시간과 "
                     "예비 시간)이 다 되었습니다.\n선택하세요: 봇이 그 턴을 두게 하거나, 게임을 "
                     "끝냅니다(포기된 게임으로 기록). 누군가 선택하기 전까지 {name} 님은 아직 "
                     "둘 수 있습니다.\n여기에서 선택하세요: {link}\n",
        "footer": "\n이 주소로 Coffee Rush 메일을 더 받지 않기: {unsubscribe}\n",
    },
}


def lang_of(value: str | None) -> str:
    return value if value in LANGS else "en"


def say(lang: str, key: str, **params: object) -> str:
    return STRINGS[lang_of(lang)][key].format(**params)
