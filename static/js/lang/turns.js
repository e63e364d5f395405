// Merges the turn-based strings (mode, long clocks, e-mail, my tables) into the shared
// language tables at import time (as ./talk.js does), so i18n.js's t() knows them.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import turnsEn from "./turns.en.js";
import turnsTh from "./turns.th.js";
import turnsKo from "./turns.ko.js";

for (const [table, extra] of [[en, turnsEn], [th, turnsTh], [ko, turnsKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
