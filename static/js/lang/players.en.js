// English strings of the leaderboard and profile pages (/players, /u/{name}) and of
// ratings elsewhere; merged by ./players.js.
export default {
  "nav.players": "Leaderboard",

  "end.ratings": "Ratings:",

  "acct.profile": "Your profile and rating",
  "acct.tables": "Your tables",


  "log.mine": "Only my moves",

  "seat.takeBackText": "You have a seat at this table: take it on this device.",
  "seat.takeBack": "Take my seat",

  "players.title": "Leaderboard",
  "players.explain": { one: "Signed-in players with at least {n} rated game.", other: "Signed-in players with at least {n} rated games." },
  "players.place": "#",
  "players.name": "Player",
  "players.rating": "Rating",
  "players.games": "Rated games",
  "players.none": "Nobody is ranked yet: sign in, and play rated games.",
  "players.bots": "Bots have fixed ratings:",
  "players.sortedBy": "Ranked by rating minus twice its uncertainty (the ± beside it): a rating that is both high and sure ranks first. Equal ones go by name.",
  "players.page": "Page {page} of {pages}",
  "players.higher": "Higher places",
  "players.lower": "Lower places",

  "profile.joined": "Playing since {date}",
  "profile.ratedGames": { one: "after {n} rated game", other: "after {n} rated games" },
  "profile.unrated": "No rated game yet.",
  "profile.chart": "Rating after each rated game, with its uncertainty",
  "profile.record": "Games by number of players",
  "profile.players": "Players",
  "profile.played": "Played",
  "profile.won": "Won",
  "profile.noGames": "No finished game yet.",
  "profile.recent": "Recent games",
  "profile.allGames": "All their games",
  "profile.rank": "#{n} on the leaderboard",

  "error.player.title": "No player of this name",
  "error.player.text": "Nobody has an account with this name here. Players who play by link only have no profile.",
};
