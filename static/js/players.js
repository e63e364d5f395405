// The leaderboard and profile pages: their texts in the reader's language.
import { mountSwitch, onLangChange } from "./i18n.js";
import { installSprite } from "./icons.js";
import { localize } from "./localize.js";

installSprite();
localize();
mountSwitch(document.getElementById("lang-switch"));
onLangChange(localize);
