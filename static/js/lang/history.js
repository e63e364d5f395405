// Merges the history pages' strings into the shared language tables at import time, so
// i18n.js's t() knows them. Import this module before translating anything.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import historyEn from "./history.en.js";
import historyTh from "./history.th.js";
import historyKo from "./history.ko.js";

for (const [table, extra] of [[en, historyEn], [th, historyTh], [ko, historyKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
