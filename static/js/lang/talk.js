// Merges the clock, chat and notification strings into the shared language tables at import
// time (as ./history.js does), so i18n.js's t() knows them.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import talkEn from "./talk.en.js";
import talkTh from "./talk.th.js";
import talkKo from "./talk.ko.js";

for (const [table, extra] of [[en, talkEn], [th, talkTh], [ko, talkKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
