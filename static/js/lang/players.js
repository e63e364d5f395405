// Merges the leaderboard's, profiles' and ratings' strings into the shared language tables
// at import time, so i18n.js's t() knows them (i18n.js imports it).
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import playersEn from "./players.en.js";
import playersTh from "./players.th.js";
import playersKo from "./players.ko.js";

for (const [table, extra] of [[en, playersEn], [th, playersTh], [ko, playersKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
