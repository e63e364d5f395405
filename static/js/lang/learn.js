// Merges the guided first game's strings into the shared language tables at import
// time (as ./history.js does), so i18n.js's t() knows them.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import learnEn from "./learn.en.js";
import learnTh from "./learn.th.js";
import learnKo from "./learn.ko.js";

for (const [table, extra] of [[en, learnEn], [th, learnTh], [ko, learnKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
