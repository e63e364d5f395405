// Korean strings of the leaderboard and profile pages; merged by ./players.js.
export default {
  "nav.players": "순위표",

  "end.ratings": "레이팅:",

  "acct.profile": "내 프로필과 레이팅",
  "acct.tables": "내 테이블",


  "log.mine": "내 기록만",

  "seat.takeBackText": "이 테이블에 내 자리가 있습니다: 이 기기에서 앉으세요.",
  "seat.takeBack": "내 자리에 앉기",

  "players.title": "순위표",
  "players.explain": { other: "레이팅 게임을 {n}판 이상 한 로그인 플레이어" },
  "players.place": "#",
  "players.name": "플레이어",
  "players.rating": "레이팅",
  "players.games": "레이팅 게임",
  "players.none": "아직 순위에 오른 사람이 없습니다. 로그인하고 레이팅 게임을 해 보세요.",
  "players.bots": "봇의 레이팅은 고정입니다:",
  "players.sortedBy": "레이팅에서 불확실성(옆의 ±)의 두 배를 뺀 값으로 순위를 매깁니다: 높고 확실한 레이팅이 먼저 옵니다. 같으면 이름순입니다.",
  "players.page": "{pages}쪽 중 {page}쪽",
  "players.higher": "더 높은 순위",
  "players.lower": "더 낮은 순위",

  "profile.joined": "{date}부터 플레이",
  "profile.ratedGames": { other: "레이팅 게임 {n}판 기준" },
  "profile.unrated": "아직 레이팅 게임이 없습니다.",
  "profile.chart": "레이팅 게임마다의 레이팅과 불확실성 범위",
  "profile.record": "인원수별 게임",
  "profile.players": "인원",
  "profile.played": "플레이",
  "profile.won": "승리",
  "profile.noGames": "아직 끝난 게임이 없습니다.",
  "profile.recent": "최근 게임",
  "profile.allGames": "이 플레이어의 모든 게임",
  "profile.rank": "리더보드 {n}위",

  "error.player.title": "이 이름의 플레이어가 없습니다",
  "error.player.text": "이 서버에 이 이름의 계정이 없습니다. 링크로만 플레이하는 사람은 프로필이 없습니다.",
};
