// Merges the operators' page's and the announcement's strings into the shared language
// tables at import time, so i18n.js's t() knows them (i18n.js imports it).
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import adminEn from "./admin.en.js";
import adminTh from "./admin.th.js";
import adminKo from "./admin.ko.js";

for (const [table, extra] of [[en, adminEn], [th, adminTh], [ko, adminKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
