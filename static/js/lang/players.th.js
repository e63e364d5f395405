// Thai strings of the leaderboard and profile pages; merged by ./players.js.
export default {
  "nav.players": "อันดับผู้เล่น",

  "end.ratings": "เรตติ้ง:",

  "acct.profile": "โปรไฟล์และเรตติ้งของคุณ",
  "acct.tables": "โต๊ะของคุณ",


  "log.mine": "เฉพาะตาของฉัน",

  "seat.takeBackText": "คุณมีที่นั่งที่โต๊ะนี้: ใช้ที่นั่งบนอุปกรณ์นี้",
  "seat.takeBack": "นั่งที่ของฉัน",

  "players.title": "อันดับผู้เล่น",
  "players.explain": { other: "ผู้เล่นที่ลงชื่อเข้าใช้และเล่นเกมที่นับเรตติ้งอย่างน้อย {n} เกม" },
  "players.place": "#",
  "players.name": "ผู้เล่น",
  "players.rating": "เรตติ้ง",
  "players.games": "เกมที่นับเรตติ้ง",
  "players.none": "ยังไม่มีใครติดอันดับ: ลงชื่อเข้าใช้แล้วเล่นเกมที่นับเรตติ้ง",
  "players.bots": "บอตมีเรตติ้งคงที่:",
  "players.sortedBy": "จัดอันดับตามเรตติ้งลบด้วยสองเท่าของความไม่แน่นอน (ค่า ± ข้างเรตติ้ง): เรตติ้งที่ทั้งสูงและแน่นอนได้อันดับแรก ถ้าเท่ากันเรียงตามชื่อ",
  "players.page": "หน้า {page} จาก {pages}",
  "players.higher": "อันดับที่สูงกว่า",
  "players.lower": "อันดับที่ต่ำกว่า",

  "profile.joined": "เล่นตั้งแต่ {date}",
  "profile.ratedGames": { other: "จาก {n} เกมที่นับเรตติ้ง" },
  "profile.unrated": "ยังไม่มีเกมที่นับเรตติ้ง",
  "profile.chart": "เรตติ้งหลังแต่ละเกมที่นับ พร้อมช่วงความไม่แน่นอน",
  "profile.record": "เกมตามจำนวนผู้เล่น",
  "profile.players": "ผู้เล่น",
  "profile.played": "เล่น",
  "profile.won": "ชนะ",
  "profile.noGames": "ยังไม่มีเกมที่จบแล้ว",
  "profile.recent": "เกมล่าสุด",
  "profile.allGames": "เกมทั้งหมดของผู้เล่นนี้",
  "profile.rank": "อันดับที่ {n} บนกระดานผู้นำ",

  "error.player.title": "ไม่มีผู้เล่นชื่อนี้",
  "error.player.text": "ไม่มีบัญชีชื่อนี้บนเซิร์ฟเวอร์นี้ ผู้เล่นที่เล่นผ่านลิงก์อย่างเดียวไม่มีโปรไฟล์",
};
