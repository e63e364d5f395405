// Merges the expert's review strings (replay/review.js) into the shared language tables at
// import time, so i18n.js's t() knows them. Import this module before translating anything.
import en from "./en.js";
import th from "./th.js";
import ko from "./ko.js";
import reviewEn from "./review.en.js";
import reviewTh from "./review.th.js";
import reviewKo from "./review.ko.js";

for (const [table, extra] of [[en, reviewEn], [th, reviewTh], [ko, reviewKo]]) {
  for (const [key, value] of Object.entries(extra)) if (!(key in table)) table[key] = value;
}
