// Merges the tournaments' strings into the shared language tables at import time, so
// i18n.js's t() knows them (i18n.js imports it).
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import tournamentEn from "./tournament.en.js";
import tournamentTh from "./tournament.th.js";
import tournamentKo from "./tournament.ko.js";

for (const [table, extra] of [[en, tournamentEn], [th, tournamentTh], [ko, tournamentKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
